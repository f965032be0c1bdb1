// What GPA_GetDeviceDesc and GPA_GetDeviceID report for an OpenCL device.
//
// OpenCL has no query for the PCI device id. Where the driver tells where the device sits on the PCI bus
// (cl_khr_pci_bus_info, or NVIDIA's cl_nv_device_attribute_query bus/slot/domain ids), the id is read from
// that PCI function's sysfs entry (/sys/bus/pci/devices/DDDD:BB:DD.F/device) once its vendor file matches
// CL_DEVICE_VENDOR_ID. Otherwise (CPU devices such as PoCL's, no sysfs) there is no honest id: none is
// reported and GPA_GetDeviceID answers GPA_STATUS_ERROR_NOT_FOUND.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "backends/opencl/cl_headers.h"
#include "core/backend.h"

namespace gpa::cl {

struct PciAddress {
    uint32_t domain = 0;
    uint32_t bus = 0;
    uint32_t device = 0;
    uint32_t function = 0;
};

// "0000:65:00.0"
std::string PciAddressText(const PciAddress& address);
// The value of a sysfs id file ("0x2330\n"), or null when it is not one.
std::optional<uint32_t> ParseSysfsId(std::string_view text);

std::optional<PciAddress> QueryPciAddress(cl_device_id device);
// Reads an id file ("vendor", "device") of `sysfsRoot`/bus/pci/devices/<address>/.
std::optional<uint32_t> ReadPciId(const PciAddress& address, const char* file, const std::string& sysfsRoot = "/sys");

// CL_DEVICE_NAME and, when it can be found, the PCI device id.
DeviceDescription DescribeDevice(cl_device_id device);

}  // namespace gpa::cl
