#include "tools/gpaprof/cli/icd_loader.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string_view>

#include <dlfcn.h>
#include <link.h>

namespace gpaprof::cli {

std::string FindIcdLoader() {
    void* loader = dlopen("libOpenCL.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!loader) return {};
    std::string path;
    link_map* map = nullptr;
    if (dlinfo(loader, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name) path = map->l_name;
    dlclose(loader);
    return path;
}

bool IcdLoaderReadsLayers(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    constexpr std::string_view kVariable = "OPENCL_LAYERS";
    return std::search(bytes.begin(), bytes.end(), kVariable.begin(), kVariable.end()) != bytes.end();
}

}  // namespace gpaprof::cli
