// Our shared libraries run inside other programs. A C++ runtime linked into one of them statically must stay
// private to it: exported, it stood in for the system's libstdc++ in libraries loaded after it (PoCL 5.0 crashed
// inside libstdc++ under gpaprof's preloaded OpenCL shim, docs/gpaprof.md).
#include <dlfcn.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

// Symbols of the C++ runtime itself, not templates a library instantiates: std::locale::id::_M_id(), std::cout,
// std::bad_exception::what(), __cxa_throw, the personality routine, operator delete.
constexpr const char* kRuntimeSymbols[] = {"_ZNKSt6locale2id5_M_idEv", "_ZSt4cout", "_ZNKSt13bad_exception4whatEv",
                                           "__cxa_throw", "__gxx_personality_v0", "_ZdlPv"};

// Loads `path` on its own and names each runtime symbol that the library itself exports (a symbol found in a
// library it depends on, the system's libstdc++.so, is as it should be). Libraries stay loaded: a runtime linked
// in statically allocates its exception pool when loaded and never frees it, which LeakSanitizer reports once the
// library is unloaded.
std::vector<std::string> RuntimeSymbolsExportedBy(const std::string& path, const char* entryPoint, std::string* error) {
    std::vector<std::string> exported;
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        *error = dlerror();
        return exported;
    }
    Dl_info self{};
    void* anchor = dlsym(library, entryPoint);
    if (!anchor || !dladdr(anchor, &self)) {
        *error = std::string("its entry point ") + entryPoint + " is not found";
        return exported;
    }
    for (const char* name : kRuntimeSymbols) {
        Dl_info where{};
        if (void* symbol = dlsym(library, name); symbol && dladdr(symbol, &where) && where.dli_fbase == self.dli_fbase) {
            exported.push_back(name);
        }
    }
    return exported;
}

TEST(PrivateRuntime, AStaticallyLinkedRuntimeIsNotExported) {
#ifndef OPENGPA_STATIC_RUNTIME_PROBE
    GTEST_SKIP() << "this toolchain cannot link libstdc++ statically (-static-libstdc++): nothing to probe";
#else
    std::string error;
    const std::vector<std::string> exported = RuntimeSymbolsExportedBy(OPENGPA_STATIC_RUNTIME_PROBE, "opengpa_probe_format", &error);
    ASSERT_TRUE(error.empty()) << error;
    EXPECT_TRUE(exported.empty()) << "the probe, linked with -static-libstdc++, exports " << exported.front()
                                  << ": cmake/OpenGPACompilerOptions.cmake's --exclude-libs did not reach it";
    // The probe works: its copy of the runtime formats.
    void* library = dlopen(OPENGPA_STATIC_RUNTIME_PROBE, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library, nullptr) << dlerror();
    auto format = reinterpret_cast<int (*)(int, char*, int)>(dlsym(library, "opengpa_probe_format"));
    ASSERT_NE(format, nullptr);
    char text[16];
    EXPECT_EQ(format(1234, text, sizeof text), 4);
    EXPECT_STREQ(text, "1234");
#endif
}

TEST(PrivateRuntime, TheTreesLibrariesExportNoRuntime) {
    const std::string list = OPENGPA_LOADED_LIBRARIES;
    if (list.empty()) GTEST_SKIP() << "no shared library of ours in this build";
    size_t begin = 0;
    while (begin < list.size()) {
        const size_t end = std::min(list.find('|', begin), list.size());
        const std::string entry = list.substr(begin, end - begin);
        begin = end + 1;
        const size_t equals = entry.rfind('=');
        ASSERT_NE(equals, std::string::npos) << entry;
        const std::string path = entry.substr(0, equals);
        const std::string entryPoint = entry.substr(equals + 1);
        std::string error;
        const std::vector<std::string> exported = RuntimeSymbolsExportedBy(path, entryPoint.c_str(), &error);
        if (!error.empty()) {
            ADD_FAILURE() << path << ": " << error;
            continue;
        }
        EXPECT_TRUE(exported.empty()) << path << " exports the C++ runtime's " << exported.front();
    }
}

}  // namespace
