#include "tools/gpaprof/spool/agent_config.h"

#include "tools/gpaprof/files/text_fields.h"
#include "tools/gpaprof/spool/rank_selection.h"

namespace gpaprof {
namespace {

void Put(std::string* text, const char* key, const std::string& value) {
    *text += key;
    *text += '=';
    *text += OneLine(value);
    *text += '\n';
}

void Put(std::string* text, const char* key, bool value) { Put(text, key, std::string(value ? "1" : "0")); }
void Put(std::string* text, const char* key, uint64_t value) { Put(text, key, std::to_string(value)); }

}  // namespace

std::string AgentConfig::Serialize() const {
    std::string text = "# gpaprof agent configuration\n";
    Put(&text, "version", std::string("1"));
    Put(&text, "trace", trace);
    Put(&text, "counters", counters);
    Put(&text, "occupancy", occupancy);
    Put(&text, "sym", sourceSymbols);
    for (const std::string& name : counterNames) Put(&text, "counter", name);
    for (const std::string& name : kernels) Put(&text, "kernel", name);
    if (!kernelRegex.empty()) Put(&text, "kernelRegex", kernelRegex);
    Put(&text, "launchSkip", launchSkip);
    if (launchCount) Put(&text, "launchCount", *launchCount);
    Put(&text, "maxApiCalls", maxApiCalls);
    for (const std::string& name : excludedApis) Put(&text, "excludeApi", name);
    Put(&text, "cudaTraceAllApis", cudaTraceAllApis);
    Put(&text, "startDisabled", startDisabled);
    Put(&text, "startDelayMs", startDelayMs);
    Put(&text, "durationMs", durationMs);
    Put(&text, "forceSinglePass", forceSinglePass);
    Put(&text, "graphProfiling", graphProfiling);
    Put(&text, "forcePasses", static_cast<uint64_t>(forcePasses));
    Put(&text, "pmSamplingIntervalNs", pmSamplingIntervalNs);
    for (const std::string& name : pmMetrics) Put(&text, "pmMetric", name);
    Put(&text, "progress", progress);
    Put(&text, "spoolDir", spoolDirectory);
    Put(&text, "output", outputTemplate);
    Put(&text, "launchNs", launchTimeNs);
    if (!ranks.empty()) Put(&text, "ranks", ranks);
    Put(&text, "separator", std::string(1, listSeparator));
    return text;
}

std::optional<AgentConfig> AgentConfig::Parse(const std::string& text, std::string* error) {
    AgentConfig config;
    size_t lineNumber = 0;
    for (std::string_view line : SplitLines(text)) {
        ++lineNumber;
        if (line.empty() || line.front() == '#') continue;
        const size_t equals = line.find('=');
        if (equals == std::string_view::npos) {
            *error = "config line " + std::to_string(lineNumber) + " has no '='";
            return std::nullopt;
        }
        const std::string_view key = line.substr(0, equals);
        const std::string value(line.substr(equals + 1));
        auto flag = [&](bool* out) {
            if (value != "0" && value != "1") return false;
            *out = value == "1";
            return true;
        };
        auto number = [&](uint64_t* out) {
            std::optional<uint64_t> parsed = ParseUnsigned(value);
            if (parsed) *out = *parsed;
            return parsed.has_value();
        };
        bool good = true;
        uint64_t scratch = 0;
        if (key == "version") good = value == "1";
        else if (key == "trace") good = flag(&config.trace);
        else if (key == "counters") good = flag(&config.counters);
        else if (key == "occupancy") good = flag(&config.occupancy);
        else if (key == "sym") good = flag(&config.sourceSymbols);
        else if (key == "counter") config.counterNames.push_back(value);
        else if (key == "kernel") config.kernels.push_back(value);
        else if (key == "kernelRegex") config.kernelRegex = value;
        else if (key == "launchSkip") good = number(&config.launchSkip);
        else if (key == "launchCount") {
            good = number(&scratch);
            config.launchCount = scratch;
        } else if (key == "maxApiCalls") good = number(&config.maxApiCalls);
        else if (key == "excludeApi") config.excludedApis.push_back(value);
        else if (key == "cudaTraceAllApis") good = flag(&config.cudaTraceAllApis);
        else if (key == "startDisabled") good = flag(&config.startDisabled);
        else if (key == "startDelayMs") good = number(&config.startDelayMs);
        else if (key == "durationMs") good = number(&config.durationMs);
        else if (key == "forceSinglePass") good = flag(&config.forceSinglePass);
        else if (key == "graphProfiling") {
            // The CUDA part acts on it; a value it does not know must not silently mean "node".
            good = value == "node" || value == "graph";
            if (good) config.graphProfiling = value;
        } else if (key == "forcePasses") {
            good = number(&scratch) && scratch <= 64;
            config.forcePasses = static_cast<uint32_t>(scratch);
        } else if (key == "pmSamplingIntervalNs") good = number(&config.pmSamplingIntervalNs);
        else if (key == "pmMetric") {
            good = !value.empty();
            config.pmMetrics.push_back(value);
        } else if (key == "progress") good = flag(&config.progress);
        else if (key == "spoolDir") config.spoolDirectory = value;
        else if (key == "output") config.outputTemplate = value;
        else if (key == "launchNs") good = number(&config.launchTimeNs);
        else if (key == "ranks") {
            std::string why;
            good = RankSelection::Parse(value, &why).has_value();  // every process reads it: refused once, here
            if (good) config.ranks = value;
        }
        else if (key == "separator") {
            good = value.size() == 1;
            if (good) config.listSeparator = value[0];
        }
        if (!good) {
            *error = "config line " + std::to_string(lineNumber) + ": bad value for " + std::string(key) + ": '" + value + "'";
            if (key == "graphProfiling") *error += " (node or graph)";
            return std::nullopt;
        }
    }
    if (config.spoolDirectory.empty()) {
        *error = "config has no spoolDir";
        return std::nullopt;
    }
    return config;
}

}  // namespace gpaprof
