// The session of the known profile that the file tests write and read back (files_test.cpp: .csv and
// .occupancy; atp_file_test.cpp: .atp): one device, the application, its arguments and the OS.
#pragma once

#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof {

inline SessionInfo Session() {
    SessionInfo session;
    session.profilerVersion = "0.1.0";
    session.application = "/opt/app/bin/solver";
    session.applicationArgs = "--size 64 \"two words\"";
    session.workingDirectory = "/home/user/run";
    DeviceHeader device;
    device.name = "pthread-haswell-AMD EPYC";
    device.platformVendor = "The pocl project";
    device.platformName = "Portable Computing Language";
    device.platformVersion = "OpenCL 3.0 PoCL 3.1";
    device.driverVersion = "3.1+debian";
    device.runtimeVersion = "OpenCL 3.0 PoCL HSTR";
    device.appAddressBits = 64;
    session.devices.push_back(device);
    session.osVersion = "Debian GNU/Linux 12 (bookworm) Build 6.1.0";
    session.displayName = "session1";
    return session;
}

}  // namespace gpaprof
