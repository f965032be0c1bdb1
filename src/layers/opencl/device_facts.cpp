#include "layers/opencl/device_facts.h"

#include <cstdio>
#include <map>
#include <mutex>

#include "layers/opencl/dispatch.h"

namespace gpa::cl_layer {

namespace {

// cl_khr_pci_bus_info and NVIDIA's cl_nv_device_attribute_query (bus, slot = device << 3 | function, domain).
constexpr cl_device_info kPciBusInfoKhr = 0x410F;
constexpr cl_device_info kPciBusIdNv = 0x4008;
constexpr cl_device_info kPciSlotIdNv = 0x4009;
constexpr cl_device_info kPciDomainIdNv = 0x400A;

std::string DriverString(cl_device_id device, cl_device_info query) {
    size_t size = 0;
    if (Next().clGetDeviceInfo(device, query, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
    std::string text(size, '\0');
    if (Next().clGetDeviceInfo(device, query, size, text.data(), nullptr) != CL_SUCCESS) return {};
    text.resize(text.find('\0') == std::string::npos ? text.size() : text.find('\0'));
    return text;
}

bool ListsExtension(const std::string& extensions, const std::string& name) {
    size_t at = 0;
    while ((at = extensions.find(name, at)) != std::string::npos) {
        const bool startsWord = at == 0 || extensions[at - 1] == ' ';
        const size_t after = at + name.size();
        if (startsWord && (after == extensions.size() || extensions[after] == ' ')) return true;
        at = after;
    }
    return false;
}

std::string PciText(cl_uint domain, cl_uint bus, cl_uint device, cl_uint function) {
    char text[32];
    std::snprintf(text, sizeof text, "%04x:%02x:%02x.%x", domain, bus, device, function);
    return text;
}

std::optional<std::string> QueryPciAddress(cl_device_id device) {
    const std::string extensions = DriverString(device, CL_DEVICE_EXTENSIONS);
    if (ListsExtension(extensions, "cl_khr_pci_bus_info")) {
        struct {
            cl_uint domain, bus, device, function;
        } info{};
        if (Next().clGetDeviceInfo(device, kPciBusInfoKhr, sizeof info, &info, nullptr) == CL_SUCCESS) {
            return PciText(info.domain, info.bus, info.device, info.function);
        }
    }
    if (ListsExtension(extensions, "cl_nv_device_attribute_query")) {
        cl_uint bus = 0, slot = 0, domain = 0;
        auto query = [&](cl_device_info name, cl_uint* value) {
            return Next().clGetDeviceInfo(device, name, sizeof *value, value, nullptr) == CL_SUCCESS;
        };
        // Without the domain query (older drivers) a guessed domain 0 could name another GPU: no address then.
        if (query(kPciBusIdNv, &bus) && query(kPciSlotIdNv, &slot) && query(kPciDomainIdNv, &domain)) {
            return PciText(domain, bus & 0xff, (slot >> 3) & 0x1f, slot & 0x7);
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<DeviceFacts> QueryDeviceFacts(cl_device_id device) {
    DeviceFacts facts;
    if (Next().clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof facts.type, &facts.type, nullptr) != CL_SUCCESS) {
        return std::nullopt;
    }
    Next().clGetDeviceInfo(device, CL_DEVICE_VENDOR_ID, sizeof facts.vendorId, &facts.vendorId, nullptr);
    facts.name = DriverString(device, CL_DEVICE_NAME);
    facts.pciAddress = QueryPciAddress(device);
    return facts;
}

std::shared_ptr<const DeviceCounters> CountersOf(cl_device_id device) {
    static std::mutex mutex;
    static std::map<cl_device_id, std::shared_ptr<const DeviceCounters>> known;
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (auto it = known.find(device); it != known.end()) return it->second;
    }
    const std::optional<DeviceFacts> facts = QueryDeviceFacts(device);
    if (!facts) return nullptr;
    std::shared_ptr<const DeviceCounters> counters = BuildDeviceCounters(*facts);
    LogDeviceCounters(*facts, *counters);
    std::lock_guard<std::mutex> lock(mutex);
    return known.emplace(device, std::move(counters)).first->second;
}

}  // namespace gpa::cl_layer
