// Stands in for the CUDA part's PM sampler, so that gpaprof's side of --pm-sampling (options, the agent's
// configuration, the spool, the assembly, the file and the views) runs end to end without a GPU: it writes a 'G'
// record and `samples` samples through the agent of the process gpaprof started, at the configured interval, and
// prints what the configuration asked for.
//
// usage: pm_records_app <samples>   (a negative count: no device record either, as a process that used no CUDA device)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tools/gpaprof/agent/agent.h"
#include "tools/gpaprof/spool/spool_records.h"

int main(int argc, char** argv) {
    const int samples = argc > 1 ? std::atoi(argv[1]) : 10;
    gpaprof::agent::Agent* agent = gpaprof::agent::Agent::Get();
    if (!agent) {
        std::printf("not profiled\n");
        return 3;
    }
    const gpaprof::AgentConfig& config = agent->config();
    std::string metrics;
    for (const std::string& name : config.pmMetrics) metrics += (metrics.empty() ? "" : ",") + name;
    std::printf("interval %llu metrics %s\n", static_cast<unsigned long long>(config.pmSamplingIntervalNs),
                metrics.empty() ? "default" : metrics.c_str());
    if (config.pmSamplingIntervalNs == 0 || samples < 0) return 0;

    const std::vector<std::string> columns =
        config.pmMetrics.empty() ? std::vector<std::string>{"dram__bytes_read.sum", "sm__cycles_active.avg.pct_of_peak_sustained_elapsed"}
                                 : config.pmMetrics;
    agent->Write(gpaprof::spool::PmDeviceRecord{0, "NVIDIA H200", "GH100", config.pmSamplingIntervalNs, columns,
                                                {"nvlrx__bytes.sum: GH100 has no nvlrx__bytes that PM sampling can read"}});
    const uint64_t start = gpaprof::agent::Agent::Now();
    const uint64_t interval = config.pmSamplingIntervalNs;
    for (int i = 0; i < samples; ++i) {
        // Sample i: the first column 1024 * i, the others i + 0.5, NA in every third sample's second column.
        std::vector<double> values(columns.size(), i + 0.5);
        values[0] = 1024.0 * i;
        if (values.size() > 1 && i % 3 == 2) values[1] = std::nan("");
        std::string line;
        gpaprof::spool::EncodePmSampleLine(0, start + i * interval, start + (i + 1) * interval, i == 5, i >= samples - 2,
                                           values, &line);
        agent->WriteEncoded(line);
    }
    return 0;
}
