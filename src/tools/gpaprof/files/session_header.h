// Header lines that the three files share: the per-device groups and the environment lines.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof {

// "<prefix>Device <name> <Key><equals><value>" for every field of every device, in layout order.
// .csv: prefix "#", equals "="; .atp: prefix "", equals " = ".
void AppendDeviceLines(std::vector<std::string>* lines, const std::vector<DeviceHeader>& devices,
                       std::string_view prefix, std::string_view equals);

// Collects device groups from header lines whose key starts with "Device ".
class DeviceHeaderParser {
public:
    // `key` is what precedes the equals sign ("Device <name> Platform Vendor"). Returns false with a reason
    // when the key names no known device field.
    bool Accept(std::string_view key, std::string_view value, std::string* problem);
    std::vector<DeviceHeader> Take() { return std::move(devices_); }

private:
    std::vector<DeviceHeader> devices_;
};

// HostName=, ClockId=, ProcessRank=NAME=VALUE (those the session has), each line "<prefix>Key=Value": the
// .atp's prefix is "", the .csv's "#".
void AppendProcessPlaceLines(std::vector<std::string>* lines, const SessionInfo& session, std::string_view prefix);

// The session's own header fields, which the .atp and .csv headers share: ProfilerVersion, Application,
// ApplicationArgs, WorkingDirectory, FullEnvironment, EnvVar, OS Version, DisplayName, HostName, ClockId,
// ProcessRank. Returns false when `key` is none of them; a value it cannot take leaves the reason in `problem`.
bool AcceptSessionField(std::string_view key, std::string_view value, SessionInfo* session, std::string* problem);

std::string BoolText(bool value);  // True / False
bool ParseBoolText(std::string_view text, bool* value);

// Application arguments as one header value: space-separated, quoted where an argument has spaces.
std::string JoinArguments(const std::vector<std::string>& args);

}  // namespace gpaprof
