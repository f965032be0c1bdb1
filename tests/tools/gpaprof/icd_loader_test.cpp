// How gpaprof tells an ICD loader with layers from one without (cli/icd_loader.h).
#include "tools/gpaprof/cli/icd_loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace gpaprof::cli {
namespace {

using namespace std::string_literals;

std::string WriteFile(const std::string& name, const std::string& bytes) {
    const std::string path = (std::filesystem::temp_directory_path() / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

TEST(IcdLoader, ALoaderThatNamesOpenclLayersReadsThem) {
    const std::string path = WriteFile("gpaprof_icd_with_layers", "\x7f" "ELF\0...\0OPENCL_LAYERS\0getenv"s);
    EXPECT_TRUE(IcdLoaderReadsLayers(path));
    std::filesystem::remove(path);
}

TEST(IcdLoader, ALoaderThatNeverNamesThemHasNone) {
    const std::string path = WriteFile("gpaprof_icd_without_layers", "\x7f" "ELF\0...\0OCL_ICD_VENDORS\0OPENCL_LAYER"s);
    EXPECT_FALSE(IcdLoaderReadsLayers(path)) << "a prefix of the name is not the name";
    std::filesystem::remove(path);
}

TEST(IcdLoader, AFileThatCannotBeReadHasNone) {
    EXPECT_FALSE(IcdLoaderReadsLayers("/nonexistent/libOpenCL.so.1"));
}

// The loader found from here is a file that exists, or there is none (a machine without OpenCL).
TEST(IcdLoader, TheLoaderFoundIsAFile) {
    const std::string path = FindIcdLoader();
    if (path.empty()) GTEST_SKIP() << "no libOpenCL.so.1 on this machine";
    EXPECT_TRUE(std::filesystem::is_regular_file(path)) << path;
    EXPECT_NE(path.find("libOpenCL.so"), std::string::npos) << path;
}

}  // namespace
}  // namespace gpaprof::cli
