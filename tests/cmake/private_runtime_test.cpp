// Our shared libraries run inside other programs. A C++ runtime linked into one of them statically must stay
// private to it: exported, it stood in for the system's libstdc++ in libraries loaded after it (PoCL 5.0 crashed
// inside libstdc++ under gpaprof's preloaded OpenCL shim, docs/gpaprof.md). So must the standard library's
// template instantiations: exported, the codeplay layer's std::call_once ran the shim's copy of its lambda, which
// read the shim's runtime's state (a crash where each library has its runtime linked in).
#include <dlfcn.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "exported_symbols.h"

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

// A mangled name of std:: or __gnu_cxx:: (a function, its local statics and guards, vtable, typeinfo): the
// prefixes cmake/std_symbols_local.map keeps local.
bool IsStandardLibrarySymbol(const std::string& name) {
    for (const char* special : {"_ZZ", "_ZGVZ", "_ZGV", "_ZTV", "_ZTI", "_ZTS", "_ZTH", "_ZTW", "_Z"}) {
        if (name.rfind(special, 0) != 0) continue;
        std::string rest = name.substr(std::string(special).size());
        if (rest.rfind("N", 0) == 0) rest.erase(0, rest.rfind("NK", 0) == 0 ? 2 : 1);
        return rest.rfind("S", 0) == 0 || rest.rfind("9__gnu_cxx", 0) == 0;
    }
    return false;
}

// The tree's libraries of OPENGPA_LOADED_LIBRARIES ("path=entry point", joined by "|"; tests/cmake/CMakeLists.txt).
struct TreeLibrary {
    std::string path;
    std::string entryPoint;
};

std::vector<TreeLibrary> TreeLibraries() {
    const std::string list = OPENGPA_LOADED_LIBRARIES;
    std::vector<TreeLibrary> libraries;
    size_t begin = 0;
    while (begin < list.size()) {
        const size_t end = std::min(list.find('|', begin), list.size());
        const std::string entry = list.substr(begin, end - begin);
        begin = end + 1;
        const size_t equals = entry.rfind('=');
        if (equals == std::string::npos) {
            ADD_FAILURE() << "no entry point in '" << entry << "'";
            continue;
        }
        libraries.push_back({entry.substr(0, equals), entry.substr(equals + 1)});
    }
    return libraries;
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
    const std::vector<TreeLibrary> libraries = TreeLibraries();
    if (libraries.empty()) GTEST_SKIP() << "no shared library of ours in this build";
    for (const auto& [path, entryPoint] : libraries) {
        std::string error;
        const std::vector<std::string> exported = RuntimeSymbolsExportedBy(path, entryPoint.c_str(), &error);
        if (!error.empty()) {
            ADD_FAILURE() << path << ": " << error;
            continue;
        }
        EXPECT_TRUE(exported.empty()) << path << " exports the C++ runtime's " << exported.front();
        std::vector<std::string> standard;
        for (const std::string& name : opengpa::testing::ExportedSymbols(path, &error)) {
            if (IsStandardLibrarySymbol(name)) standard.push_back(name);
        }
        EXPECT_TRUE(error.empty()) << path << ": " << error;
        EXPECT_TRUE(standard.empty()) << path << " exports " << standard.size() << " of the standard library's "
                                      << "template instantiations, the first " << standard.front()
                                      << ": cmake/std_symbols_local.map did not reach it";
    }
}

// The libraries that run inside other programs (all but the GPA libraries) stay loaded once loaded (-z nodelete in
// cmake/OpenGPACompilerOptions.cmake): a loader that closes a layer must not unload code a driver or thread may still
// call. The GPA libraries, which applications open and close, are not checked.
TEST(PrivateRuntime, LayersAndInjectedLibrariesStayLoadedAfterDlclose) {
    int checked = 0;
    for (const auto& [path, entryPoint] : TreeLibraries()) {
        if (entryPoint == "GPA_Initialize") continue;
        void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        ASSERT_NE(library, nullptr) << dlerror();
        dlclose(library);
        EXPECT_NE(dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD), nullptr)
            << path << " was unloaded by dlclose: it lacks -z nodelete";
        ++checked;
    }
    if (checked == 0) GTEST_SKIP() << "no layer or injected library in this build";
}

TEST(PrivateRuntime, TheStandardLibrarySymbolsAreRecognised) {
    EXPECT_TRUE(IsStandardLibrarySymbol("_ZZNSt9once_flag18_Prepare_executionC4IZSt9call_onceIRFvvEJEEvRS_OT_DpOT0_EUlvE_EERS6_ENUlvE_4_FUNEv"));
    EXPECT_TRUE(IsStandardLibrarySymbol("_ZNKSt8__detail9_ExecutorIN9__gnu_cxx17__normal_iteratorIPKcEEEE16_M_word_boundaryEv"));
    EXPECT_TRUE(IsStandardLibrarySymbol("_ZSt9call_onceIRFvvEJEEvRSt9once_flagOT_DpOT0_"));
    EXPECT_TRUE(IsStandardLibrarySymbol("_ZGVZNKSt8__detail11_AnyMatcherINSt7__cxx1112regex_traitsIcEELb0ELb0ELb0EEclEcE5__nul"));
    EXPECT_TRUE(IsStandardLibrarySymbol("_ZTVNSt3__117bad_function_callE"));
    EXPECT_TRUE(IsStandardLibrarySymbol("_ZN9__gnu_cxx13new_allocatorIcE8allocateEm"));
    EXPECT_FALSE(IsStandardLibrarySymbol("_ZN7gpaprof5agent5Agent3GetEv"));
    EXPECT_FALSE(IsStandardLibrarySymbol("_ZN7gpaprof5agent5Agent4NoteERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"));
    EXPECT_FALSE(IsStandardLibrarySymbol("clGetPlatformIDs"));
    EXPECT_FALSE(IsStandardLibrarySymbol("GPA_Initialize"));
}

}  // namespace
