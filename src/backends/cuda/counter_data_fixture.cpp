#include "backends/cuda/counter_data_fixture.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "backends/cuda/cupti_host.h"

namespace gpa::cuda {

namespace {
constexpr const char* kMagic = "opengpa-counter-data";
constexpr int kVersion = 1;
}  // namespace

Outcome WriteCounterDataFixture(const std::string& directory, const CounterDataFixture& fixture) {
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error) return Fail(GPA_STATUS_ERROR_FAILED, "cannot create " + directory + ": " + error.message());
    std::ofstream manifest(directory + "/manifest.txt");
    manifest << kMagic << ' ' << kVersion << '\n' << "chip " << fixture.chip << '\n';
    for (size_t g = 0; g < fixture.groups.size(); ++g) {
        const std::string file = "group" + std::to_string(g) + ".counterdata";
        manifest << "group " << g << ' ' << file;
        for (const std::string& metric : fixture.groups[g].metrics) manifest << ' ' << metric;
        manifest << '\n';
        std::ofstream image(directory + "/" + file, std::ios::binary);
        image.write(reinterpret_cast<const char*>(fixture.groups[g].counterData.data()),
                    static_cast<std::streamsize>(fixture.groups[g].counterData.size()));
        if (!image) return Fail(GPA_STATUS_ERROR_FAILED, "cannot write " + directory + "/" + file);
    }
    if (!manifest) return Fail(GPA_STATUS_ERROR_FAILED, "cannot write " + directory + "/manifest.txt");
    return Outcome::Ok();
}

Outcome ReadCounterDataFixture(const std::string& directory, CounterDataFixture* fixture) {
    std::ifstream manifest(directory + "/manifest.txt");
    if (!manifest) return Fail(GPA_STATUS_ERROR_NOT_FOUND, "no manifest.txt in " + directory);
    std::string magic;
    int version = 0;
    manifest >> magic >> version;
    if (magic != kMagic || version != kVersion) {
        return Fail(GPA_STATUS_ERROR_FAILED, directory + "/manifest.txt is not an OpenGPA counter data manifest");
    }
    CounterDataFixture result;
    std::string line;
    std::getline(manifest, line);
    while (std::getline(manifest, line)) {
        std::istringstream words(line);
        std::string key;
        words >> key;
        if (key == "chip") {
            words >> result.chip;
        } else if (key == "group") {
            size_t index = 0;
            std::string file;
            words >> index >> file;
            CounterDataFixture::Group group;
            for (std::string metric; words >> metric;) group.metrics.push_back(metric);
            std::ifstream image(directory + "/" + file, std::ios::binary);
            if (!image) return Fail(GPA_STATUS_ERROR_NOT_FOUND, "missing " + directory + "/" + file);
            group.counterData.assign(std::istreambuf_iterator<char>(image), std::istreambuf_iterator<char>());
            result.groups.push_back(std::move(group));
        }
    }
    if (result.chip.empty() || result.groups.empty()) {
        return Fail(GPA_STATUS_ERROR_FAILED, directory + "/manifest.txt names no chip or no group");
    }
    *fixture = std::move(result);
    return Outcome::Ok();
}

Outcome FixtureRangeNames(const CuptiApi& api, const CounterDataFixture& fixture, std::vector<std::string>* names) {
    return CounterDataRangeNames(api, fixture.groups.front().counterData, names);
}

Outcome EvaluateFixtureRange(const CuptiApi& api, const CounterDataFixture& fixture, const std::string& rangeName,
                             std::map<std::string, double>* values) {
    values->clear();
    for (const CounterDataFixture::Group& group : fixture.groups) {
        std::vector<std::string> ranges;
        if (Outcome o = CounterDataRangeNames(api, group.counterData, &ranges); !o.ok()) return o;
        auto it = std::find(ranges.begin(), ranges.end(), rangeName);
        if (it == ranges.end()) return Fail(GPA_STATUS_ERROR_NOT_FOUND, "no range named '" + rangeName + "'");
        std::unique_ptr<HostObject> host;
        if (Outcome o = HostObject::Create(api, fixture.chip, {}, &host); !o.ok()) return o;
        if (const CUptiResult added = host->AddMetrics(group.metrics); added != CUPTI_SUCCESS) {
            return api.Failure("cuptiProfilerHostConfigAddMetrics", added);
        }
        std::vector<double> evaluated;
        if (Outcome o = host->Evaluate(group.counterData, static_cast<size_t>(it - ranges.begin()), group.metrics, &evaluated);
            !o.ok()) {
            return o;
        }
        for (size_t i = 0; i < group.metrics.size(); ++i) (*values)[group.metrics[i]] = evaluated[i];
    }
    return Outcome::Ok();
}

}  // namespace gpa::cuda
