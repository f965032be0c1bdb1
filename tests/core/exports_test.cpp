// A GPA shared library exports exactly the functions of GPUPerfAPIFunctionList.h: each one resolves with
// dlsym (as the seed's section 2.2 loads them), and the dynamic symbol table holds no other GPA_*/OGPA_*
// name and nothing else at all. Checked on libopengpa_scripted.so, the core + scripted backend built the
// way every libGPUPerfAPI<API>.so is.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "GPUPerfAPIFunctionTypes.h"
#include "exported_symbols.h"

namespace {

const char* const kLibrary = OPENGPA_SCRIPTED_LIBRARY;

// Every name of the function list, generated from the list itself.
const std::vector<std::string>& ListedFunctions() {
    static const std::vector<std::string> names = {
#define GPA_FUNCTION(ReturnType, Name, ParameterList, ArgumentList) #Name,
#define OGPA_EXTENSION_FUNCTION GPA_FUNCTION
#include "GPUPerfAPIFunctionList.h"
#undef GPA_FUNCTION
#undef OGPA_EXTENSION_FUNCTION
    };
    return names;
}

// Defined symbols of the library's dynamic symbol table (what the library exports).
std::set<std::string> ExportedSymbols(const char* path) {
    std::string error;
    const std::vector<std::string> names = opengpa::testing::ExportedSymbols(path, &error);
    if (!error.empty()) ADD_FAILURE() << error;
    return {names.begin(), names.end()};
}

bool IsGpaName(const std::string& name) { return name.rfind("GPA_", 0) == 0 || name.rfind("OGPA_", 0) == 0; }

TEST(Exports, EveryListedFunctionResolvesWithDlsym) {
    void* library = dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library, nullptr) << dlerror();
    ASSERT_GE(ListedFunctions().size(), 41u);
    for (const std::string& name : ListedFunctions()) {
        void* address = dlsym(library, name.c_str());
        EXPECT_NE(address, nullptr) << name << " is not exported";
        Dl_info info{};
        if (address != nullptr && dladdr(address, &info) != 0) {
            EXPECT_STREQ(info.dli_sname, name.c_str());
            EXPECT_NE(std::string(info.dli_fname).find("libopengpa_scripted"), std::string::npos) << info.dli_fname;
        }
    }
    dlclose(library);
}

TEST(Exports, TheDynamicSymbolTableHoldsTheListAndNothingElse) {
    const std::set<std::string> exported = ExportedSymbols(kLibrary);
    const std::set<std::string> listed(ListedFunctions().begin(), ListedFunctions().end());
    EXPECT_EQ(listed.size(), ListedFunctions().size()) << "a name appears twice in the function list";
    for (const std::string& name : listed) EXPECT_EQ(exported.count(name), 1u) << name << " is not exported";
    for (const std::string& name : exported) {
        if (IsGpaName(name)) EXPECT_EQ(listed.count(name), 1u) << name << " is exported but not in the function list";
        else ADD_FAILURE() << "the library exports " << name << ", which is not a GPA function";
    }
}

TEST(Exports, FunctionsLoadedByNameWork) {
    // The seed's 2.2: dlopen, then dlsym each function into its <Name>PtrType.
    void* library = dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library, nullptr) << dlerror();
#define LOAD(Name) const auto Name##Ptr = reinterpret_cast<Name##PtrType>(dlsym(library, #Name)); ASSERT_NE(Name##Ptr, nullptr)
    LOAD(GPA_GetStatusAsStr);
    LOAD(GPA_Initialize);
    LOAD(GPA_OpenContext);
    LOAD(GPA_GetNumCounters);
    LOAD(GPA_GetDeviceDesc);
    LOAD(GPA_CloseContext);
    LOAD(GPA_Destroy);
    LOAD(OGPA_GetLastErrorMessage);
#undef LOAD
    EXPECT_STREQ(GPA_GetStatusAsStrPtr(GPA_STATUS_ERROR_FAILED), "GPA_STATUS_ERROR_FAILED");
    int queue = 0;
    EXPECT_EQ(GPA_InitializePtr(), GPA_STATUS_OK);
    EXPECT_EQ(GPA_OpenContextPtr(&queue, GPA_OPENCONTEXT_DEFAULT_BIT), GPA_STATUS_OK);
    gpa_uint32 count = 0;
    EXPECT_EQ(GPA_GetNumCountersPtr(&count), GPA_STATUS_OK);
    EXPECT_EQ(count, 5u);
    const char* desc = nullptr;
    EXPECT_EQ(GPA_GetDeviceDescPtr(&desc), GPA_STATUS_OK);
    EXPECT_STREQ(desc, "Scripted Test Device");
    EXPECT_EQ(GPA_CloseContextPtr(), GPA_STATUS_OK);
    EXPECT_EQ(GPA_DestroyPtr(), GPA_STATUS_OK);
    EXPECT_EQ(GPA_DestroyPtr(), GPA_STATUS_ERROR_FAILED);
    EXPECT_NE(std::string(OGPA_GetLastErrorMessagePtr()).find("GPA_Destroy"), std::string::npos);
    dlclose(library);
}

}  // namespace
