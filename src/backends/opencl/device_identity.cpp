#include "backends/opencl/device_identity.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "backends/opencl/cl_queries.h"

namespace gpa::cl {

namespace {

// cl_khr_pci_bus_info (not in every header the backend may be built against).
constexpr cl_device_info kPciBusInfoKhr = 0x410F;
struct PciBusInfoKhr {
    cl_uint pci_domain;
    cl_uint pci_bus;
    cl_uint pci_device;
    cl_uint pci_function;
};
// cl_nv_device_attribute_query: bus id, slot id (device << 3 | function) and, on newer drivers, domain id.
constexpr cl_device_info kPciBusIdNv = 0x4008;
constexpr cl_device_info kPciSlotIdNv = 0x4009;
constexpr cl_device_info kPciDomainIdNv = 0x400A;

bool QueryUint(cl_device_id device, cl_device_info query, cl_uint* value) {
    return clGetDeviceInfo(device, query, sizeof *value, value, nullptr) == CL_SUCCESS;
}

}  // namespace

std::string PciAddressText(const PciAddress& address) {
    char text[32];
    std::snprintf(text, sizeof text, "%04x:%02x:%02x.%x", address.domain, address.bus, address.device,
                  address.function);
    return text;
}

std::optional<uint32_t> ParseSysfsId(std::string_view text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
    if (text.size() < 3 || text.size() > 6 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) return std::nullopt;
    uint32_t value = 0;
    for (char c : text.substr(2)) {
        uint32_t digit;
        if (c >= '0' && c <= '9') digit = static_cast<uint32_t>(c - '0');
        else if (c >= 'a' && c <= 'f') digit = static_cast<uint32_t>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') digit = static_cast<uint32_t>(c - 'A' + 10);
        else return std::nullopt;
        value = value * 16 + digit;
    }
    return value;
}

std::optional<PciAddress> QueryPciAddress(cl_device_id device) {
    if (HasExtension(device, "cl_khr_pci_bus_info")) {
        PciBusInfoKhr info{};
        if (clGetDeviceInfo(device, kPciBusInfoKhr, sizeof info, &info, nullptr) == CL_SUCCESS) {
            return PciAddress{info.pci_domain, info.pci_bus, info.pci_device, info.pci_function};
        }
    }
    if (HasExtension(device, "cl_nv_device_attribute_query")) {
        cl_uint bus = 0, slot = 0, domain = 0;
        if (QueryUint(device, kPciBusIdNv, &bus) && QueryUint(device, kPciSlotIdNv, &slot)) {
            // Older drivers have no domain query; guessing domain 0 could name another GPU, so give up.
            if (QueryUint(device, kPciDomainIdNv, &domain)) {
                return PciAddress{domain, bus & 0xff, (slot >> 3) & 0x1f, slot & 0x7};
            }
        }
    }
    return std::nullopt;
}

std::optional<uint32_t> ReadPciId(const PciAddress& address, const char* file, const std::string& sysfsRoot) {
    std::ifstream in(sysfsRoot + "/bus/pci/devices/" + PciAddressText(address) + "/" + file);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return ParseSysfsId(text.str());
}

DeviceDescription DescribeDevice(cl_device_id device) {
    DeviceDescription description;
    description.name = DeviceString(device, CL_DEVICE_NAME);
    const std::optional<PciAddress> address = QueryPciAddress(device);
    if (!address) return description;
    // The PCI function must be the device's: its vendor is the one the driver reports.
    cl_uint vendor = 0;
    if (!QueryUint(device, CL_DEVICE_VENDOR_ID, &vendor) || ReadPciId(*address, "vendor") != vendor) {
        return description;
    }
    description.deviceId = ReadPciId(*address, "device");
    return description;
}

}  // namespace gpa::cl
