/* A stand-in for libnvidia-ml.so.1 with fixed readings, for the layer's unit tests (never shipped). It knows
 * one GPU, at PCI address 0000:3b:00.0, whose memory clock NVML "does not support". */
#include <string.h>

typedef void* nvmlDevice_t;

enum { kSuccess = 0, kInvalidArgument = 2, kNotSupported = 3, kNotFound = 6 };

static int g_device;

int nvmlInit_v2(void) { return kSuccess; }

int nvmlDeviceGetHandleByPciBusId_v2(const char* busId, nvmlDevice_t* device) {
    if (strcmp(busId, "0000:3b:00.0") != 0) return kNotFound;
    *device = &g_device;
    return kSuccess;
}

int nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned* milliwatts) {
    (void)device;
    *milliwatts = 123456;
    return kSuccess;
}

int nvmlDeviceGetTemperature(nvmlDevice_t device, int sensor, unsigned* celsius) {
    (void)device;
    if (sensor != 0) return kInvalidArgument;
    *celsius = 55;
    return kSuccess;
}

int nvmlDeviceGetClockInfo(nvmlDevice_t device, int type, unsigned* megahertz) {
    (void)device;
    if (type == 1) {
        *megahertz = 1980;
        return kSuccess;
    }
    return type == 2 ? kNotSupported : kInvalidArgument;
}

const char* nvmlErrorString(int result) { return result == kNotSupported ? "Not Supported" : "Error"; }
