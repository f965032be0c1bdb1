#include "tools/gpaprof/files/session_header.h"

#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof {
namespace {

enum class DeviceField { Vendor, Name, Version, Driver, Runtime, AddressBits, Board, Pcie };

struct DeviceKey {
    DeviceField field;
    const char* key;
};

constexpr DeviceKey kDeviceKeys[] = {
    {DeviceField::Vendor, "Platform Vendor"},   {DeviceField::Name, "Platform Name"},
    {DeviceField::Version, "Platform Version"}, {DeviceField::Driver, "CLDriver Version"},
    {DeviceField::Runtime, "CLRuntime Version"}, {DeviceField::AddressBits, "NumberAppAddressBits"},
    {DeviceField::Board, "Board Name"},          {DeviceField::Pcie, "PCIE device id"},
};

}  // namespace

void AppendDeviceLines(std::vector<std::string>* lines, const std::vector<DeviceHeader>& devices,
                       std::string_view prefix, std::string_view equals) {
    for (const DeviceHeader& device : devices) {
        auto add = [&](const char* key, const std::string& value) {
            lines->push_back(std::string(prefix) + "Device " + device.name + " " + key + std::string(equals) + value);
        };
        add("Platform Vendor", device.platformVendor);
        add("Platform Name", device.platformName);
        add("Platform Version", device.platformVersion);
        add("CLDriver Version", device.driverVersion);
        add("CLRuntime Version", device.runtimeVersion);
        add("NumberAppAddressBits", std::to_string(device.appAddressBits));
        if (device.boardName) add("Board Name", *device.boardName);
        if (device.pcieDeviceId) add("PCIE device id", *device.pcieDeviceId);
    }
}

bool DeviceHeaderParser::Accept(std::string_view key, std::string_view value, std::string* problem) {
    key.remove_prefix(std::string_view("Device ").size());
    for (const DeviceKey& known : kDeviceKeys) {
        const std::string suffix = std::string(" ") + known.key;
        if (key.size() <= suffix.size() || key.substr(key.size() - suffix.size()) != suffix) continue;
        const std::string name(key.substr(0, key.size() - suffix.size()));
        // A group starts with its Platform Vendor line, or when the device name changes.
        if (devices_.empty() || known.field == DeviceField::Vendor || devices_.back().name != name) {
            devices_.push_back(DeviceHeader{});
            devices_.back().name = name;
        }
        DeviceHeader& device = devices_.back();
        const std::string text(value);
        switch (known.field) {
            case DeviceField::Vendor: device.platformVendor = text; break;
            case DeviceField::Name: device.platformName = text; break;
            case DeviceField::Version: device.platformVersion = text; break;
            case DeviceField::Driver: device.driverVersion = text; break;
            case DeviceField::Runtime: device.runtimeVersion = text; break;
            case DeviceField::AddressBits: {
                std::optional<uint64_t> bits = ParseUnsigned(Trim(value));
                if (!bits || *bits > 128) {
                    *problem = "NumberAppAddressBits is not a number: '" + text + "'";
                    return false;
                }
                device.appAddressBits = static_cast<uint32_t>(*bits);
                break;
            }
            case DeviceField::Board: device.boardName = text; break;
            case DeviceField::Pcie: device.pcieDeviceId = text; break;
        }
        return true;
    }
    *problem = "unknown device header key '" + std::string(key) + "'";
    return false;
}

std::string BoolText(bool value) { return value ? "True" : "False"; }

bool ParseBoolText(std::string_view text, bool* value) {
    if (text == "True" || text == "true" || text == "1") {
        *value = true;
        return true;
    }
    if (text == "False" || text == "false" || text == "0") {
        *value = false;
        return true;
    }
    return false;
}

std::string JoinArguments(const std::vector<std::string>& args) {
    std::string joined;
    for (const std::string& arg : args) {
        if (!joined.empty()) joined += ' ';
        const bool quote = arg.empty() || arg.find_first_of(" \t\"'") != std::string::npos;
        if (!quote) {
            joined += arg;
            continue;
        }
        joined += '"';
        for (char c : arg) {
            if (c == '"' || c == '\\') joined += '\\';
            joined += (c == '\n' || c == '\r') ? ' ' : c;
        }
        joined += '"';
    }
    return joined;
}

void AppendProcessPlaceLines(std::vector<std::string>* lines, const SessionInfo& session, std::string_view prefix) {
    if (session.hostName) lines->push_back(std::string(prefix) + "HostName=" + OneLine(*session.hostName));
    if (session.clockId) lines->push_back(std::string(prefix) + "ClockId=" + OneLine(*session.clockId));
    if (session.processRank) {
        lines->push_back(std::string(prefix) + "ProcessRank=" + OneLine(session.processRank->name) + "=" +
                         OneLine(session.processRank->value));
    }
}

bool AcceptSessionField(std::string_view key, std::string_view value, SessionInfo* session, std::string* problem) {
    if (key == "ProfilerVersion") {
        session->profilerVersion = std::string(value);
    } else if (key == "Application") {
        session->application = std::string(value);
    } else if (key == "ApplicationArgs") {
        session->applicationArgs = std::string(value);
    } else if (key == "WorkingDirectory") {
        session->workingDirectory = std::string(value);
    } else if (key == "FullEnvironment") {
        bool full = false;
        if (!ParseBoolText(value, &full)) *problem = "FullEnvironment must be 0 or 1: '" + std::string(value) + "'";
        session->fullEnvironment = full;
    } else if (key == "EnvVar") {
        const size_t nameEnd = value.find('=');
        if (nameEnd == std::string_view::npos || nameEnd == 0) {
            *problem = "EnvVar must be NAME=VALUE: '" + std::string(value) + "'";
        } else {
            session->environment.push_back({std::string(value.substr(0, nameEnd)), std::string(value.substr(nameEnd + 1))});
        }
    } else if (key == "OS Version") {
        session->osVersion = std::string(value);
    } else if (key == "DisplayName") {
        session->displayName = std::string(value);
    } else if (key == "HostName") {
        session->hostName = std::string(value);
    } else if (key == "ClockId") {
        session->clockId = std::string(value);
    } else if (key == "ProcessRank") {
        const size_t nameEnd = value.find('=');
        if (nameEnd == std::string_view::npos || nameEnd == 0) {
            *problem = "ProcessRank must be NAME=VALUE: '" + std::string(value) + "'";
        } else {
            session->processRank =
                EnvironmentVariable{std::string(value.substr(0, nameEnd)), std::string(value.substr(nameEnd + 1))};
        }
    } else {
        return false;
    }
    return true;
}

}  // namespace gpaprof
