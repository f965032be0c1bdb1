#include "backends/gl/device_identity.h"

#include <EGL/eglext.h>

#include <filesystem>
#include <fstream>
#include <regex>

namespace gpa::gl {

namespace {

std::optional<uint32_t> PciDeviceId() {
    const EGLDisplay display = eglGetCurrentDisplay();
    auto queryDisplay = reinterpret_cast<PFNEGLQUERYDISPLAYATTRIBEXTPROC>(eglGetProcAddress("eglQueryDisplayAttribEXT"));
    auto queryDevice = reinterpret_cast<PFNEGLQUERYDEVICESTRINGEXTPROC>(eglGetProcAddress("eglQueryDeviceStringEXT"));
    EGLAttrib device = 0;
    if (display == EGL_NO_DISPLAY || !queryDisplay || !queryDevice || !queryDisplay(display, EGL_DEVICE_EXT, &device) || !device) {
        return std::nullopt;
    }
    const char* file = queryDevice(reinterpret_cast<EGLDeviceEXT>(device), EGL_DRM_DEVICE_FILE_EXT);
    if (!file) return std::nullopt;
    const std::optional<std::string> idFile = SysfsDeviceIdFile(file);
    if (!idFile) return std::nullopt;
    std::ifstream in(*idFile);
    std::string text;
    if (!(in >> text)) return std::nullopt;
    try {
        size_t used = 0;
        const unsigned long id = std::stoul(text, &used, 16);
        if (used != text.size() || id > 0xffff) return std::nullopt;
        return static_cast<uint32_t>(id);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::optional<uint32_t> ReadHex(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string text;
    if (!(in >> text)) return std::nullopt;
    try {
        size_t used = 0;
        const unsigned long value = std::stoul(text, &used, 16);
        if (used != text.size()) return std::nullopt;
        return static_cast<uint32_t>(value);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::vector<PciFunction> SysfsPciFunctions() {
    std::vector<PciFunction> functions;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator("/sys/bus/pci/devices", error)) {
        const auto vendor = ReadHex(entry.path() / "vendor"), classCode = ReadHex(entry.path() / "class"),
                   device = ReadHex(entry.path() / "device");
        if (vendor && classCode && device) functions.push_back(PciFunction{*vendor, *classCode, *device});
    }
    return functions;
}

}  // namespace

std::optional<uint32_t> SoleDisplayDeviceId(const std::vector<PciFunction>& functions, uint32_t vendor) {
    std::optional<uint32_t> id;
    for (const PciFunction& function : functions) {
        if (function.vendor != vendor || (function.classCode >> 16) != 0x03) continue;
        if (id && *id != function.device) return std::nullopt;
        id = function.device;
    }
    return id;
}

std::optional<std::string> SysfsDeviceIdFile(const std::string& drmDeviceFile) {
    static const std::regex card(R"(^/dev/dri/(card\d+)$)");
    std::smatch match;
    if (!std::regex_match(drmDeviceFile, match, card)) return std::nullopt;
    return "/sys/class/drm/" + match[1].str() + "/device/device";
}

DeviceDescription DescribeDevice(const GlFunctions& gl) {
    DeviceDescription description;
    if (const GLubyte* renderer = gl.GetString(GL_RENDERER)) description.name = reinterpret_cast<const char*>(renderer);
    description.deviceId = PciDeviceId();
    const GLubyte* vendor = gl.GetString(GL_VENDOR);
    if (!description.deviceId && vendor && std::string(reinterpret_cast<const char*>(vendor)).find("NVIDIA") != std::string::npos) {
        description.deviceId = SoleDisplayDeviceId(SysfsPciFunctions(), 0x10de);
    }
    return description;
}

}  // namespace gpa::gl
