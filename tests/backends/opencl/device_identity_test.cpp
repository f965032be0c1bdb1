// How the OpenCL backend finds a PCI device id, without depending on the machine's devices.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "backends/opencl/cl_errors.h"
#include "backends/opencl/cl_queries.h"
#include "backends/opencl/device_identity.h"

namespace {

using namespace gpa::cl;

TEST(DeviceIdentity, PciAddressIsWrittenAsSysfsNamesIt) {
    EXPECT_EQ(PciAddressText({0, 0x65, 0, 0}), "0000:65:00.0");
    EXPECT_EQ(PciAddressText({1, 0xc7, 0x1f, 7}), "0001:c7:1f.7");
}

TEST(DeviceIdentity, SysfsIdsAreHex) {
    EXPECT_EQ(ParseSysfsId("0x2330\n"), 0x2330u);
    EXPECT_EQ(ParseSysfsId("0x10de"), 0x10deu);
    EXPECT_EQ(ParseSysfsId("0X10DE\n"), 0x10deu);
    EXPECT_FALSE(ParseSysfsId("").has_value());
    EXPECT_FALSE(ParseSysfsId("2330").has_value());
    EXPECT_FALSE(ParseSysfsId("0x").has_value());
    EXPECT_FALSE(ParseSysfsId("0xzz").has_value());
    EXPECT_FALSE(ParseSysfsId("0x1234567").has_value());
}

TEST(DeviceIdentity, IdsAreReadFromTheFunctionsSysfsDirectory) {
    namespace fs = std::filesystem;
    const fs::path root = fs::temp_directory_path() / ("opengpa-sysfs-" + std::to_string(::getpid()));
    const fs::path function = root / "bus/pci/devices/0000:65:00.0";
    fs::create_directories(function);
    std::ofstream(function / "device") << "0x2330\n";
    std::ofstream(function / "vendor") << "0x10de\n";
    EXPECT_EQ(ReadPciId({0, 0x65, 0, 0}, "device", root.string()), 0x2330u);
    EXPECT_EQ(ReadPciId({0, 0x65, 0, 0}, "vendor", root.string()), 0x10deu);
    EXPECT_FALSE(ReadPciId({0, 0x66, 0, 0}, "device", root.string()).has_value());
    fs::remove_all(root);
}

TEST(ClErrors, NamesAndFailures) {
    EXPECT_STREQ(ClErrorName(CL_INVALID_COMMAND_QUEUE), "CL_INVALID_COMMAND_QUEUE");
    EXPECT_STREQ(ClErrorName(CL_PROFILING_INFO_NOT_AVAILABLE), "CL_PROFILING_INFO_NOT_AVAILABLE");
    EXPECT_STREQ(ClErrorName(CL_SUCCESS), "CL_SUCCESS");
    EXPECT_STREQ(ClErrorName(-12345), "unknown OpenCL error");
    EXPECT_EQ(ClFailure("clFlush", CL_OUT_OF_RESOURCES), "clFlush failed with CL_OUT_OF_RESOURCES (-5)");
}

TEST(ClQueries, VersionsAreParsed) {
    EXPECT_TRUE(ParseVersion("OpenCL 3.0 PoCL HSTR: pthread").AtLeast(1, 2));
    EXPECT_TRUE(ParseVersion("OpenCL 1.2 CUDA").AtLeast(1, 2));
    EXPECT_FALSE(ParseVersion("OpenCL 1.1 ").AtLeast(1, 2));
    EXPECT_FALSE(ParseVersion("garbage").AtLeast(1, 0));
}

}  // namespace
