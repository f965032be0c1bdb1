// A shared library with libstdc++ linked into it (tests/cmake/CMakeLists.txt): it formats through a stream, so the
// runtime's locale machinery is part of it.
#include <cstring>
#include <sstream>
#include <string>

extern "C" __attribute__((visibility("default"))) int opengpa_probe_format(int value, char* out, int size) {
    std::ostringstream stream;
    stream << value;
    const std::string text = stream.str();
    if (size <= 0 || static_cast<int>(text.size()) >= size) return -1;
    std::memcpy(out, text.c_str(), text.size() + 1);
    return static_cast<int>(text.size());
}
