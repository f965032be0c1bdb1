#include "backends/cuda/cupti_pass_planner.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <random>
#include <thread>
#include <unordered_set>

#include "backends/cuda/cupti_host.h"

namespace gpa::cuda {

namespace {

// "lts__t_sectors.sum" -> "lts"; "FE_B.TriageCompute.gr__cycles_active.sum" -> "gr".
std::string UnitOf(const std::string& metric) {
    const size_t separator = metric.find("__");
    if (separator == std::string::npos) return metric;
    const size_t dot = metric.rfind('.', separator);
    const size_t begin = dot == std::string::npos ? 0 : dot + 1;
    return metric.substr(begin, separator - begin);
}

// Adds `metrics` to a fresh host object in one call.
CUptiResult TryConfig(const CuptiApi& api, const std::string& chip, const std::vector<uint8_t>& availability,
                      const std::vector<std::string>& metrics, std::unique_ptr<HostObject>* host, Outcome* error) {
    *error = HostObject::Create(api, chip, availability, host);
    if (!error->ok()) return CUPTI_ERROR_UNKNOWN;
    return (*host)->AddMetrics(metrics);
}

// Names the metrics CUPTI refuses on their own (unknown names, metrics the device cannot collect).
Outcome RefusedMetrics(const CuptiApi& api, const std::string& chip, const std::vector<uint8_t>& availability,
                       const std::vector<std::string>& metrics) {
    std::string refused;
    for (const std::string& metric : metrics) {
        std::unique_ptr<HostObject> host;
        Outcome error;
        const CUptiResult result = TryConfig(api, chip, availability, {metric}, &host, &error);
        if (!error.ok()) return error;
        if (result != CUPTI_SUCCESS) refused += (refused.empty() ? "" : "; ") + metric + ": " + api.Describe(result);
    }
    if (refused.empty()) return Outcome::Ok();
    return Fail(GPA_STATUS_ERROR_NOT_FOUND, "CUPTI does not accept these metrics on " + chip + ": " + refused);
}

// Splits metrics into groups CUPTI accepts in one configuration. Which configurations CUPTI accepts goes by
// hardware domain, so one metric per hardware unit is probed (against one metric per unit of each group) and
// its unit's metrics follow it; each group is then confirmed whole, and a group CUPTI refuses whole is split
// again metric by metric against all of its metrics.
Outcome Partition(const CuptiApi& api, const std::string& chip, const std::vector<uint8_t>& availability,
                  const std::vector<std::string>& metrics, bool exact, std::vector<std::vector<std::string>>* groups) {
    struct Group {
        std::vector<std::string> metrics;
        std::vector<std::string> witnesses;
    };
    std::vector<Group> built;
    std::unordered_map<std::string, size_t> groupOfUnit;
    for (const std::string& metric : metrics) {
        const std::string unit = UnitOf(metric);
        if (!exact) {
            auto known = groupOfUnit.find(unit);
            if (known != groupOfUnit.end()) {
                built[known->second].metrics.push_back(metric);
                continue;
            }
        }
        bool placed = false;
        for (size_t g = 0; g < built.size() && !placed; ++g) {
            Group& group = built[g];
            std::vector<std::string> probe = exact ? group.metrics : group.witnesses;
            probe.push_back(metric);
            std::unique_ptr<HostObject> host;
            Outcome error;
            const CUptiResult result = TryConfig(api, chip, availability, probe, &host, &error);
            if (!error.ok()) return error;
            if (result != CUPTI_SUCCESS) continue;
            group.metrics.push_back(metric);
            group.witnesses.push_back(metric);
            groupOfUnit.emplace(unit, g);
            placed = true;
        }
        if (!placed) {
            // A metric no group takes may be one CUPTI refuses even alone (unknown name, not collectable here).
            std::unique_ptr<HostObject> host;
            Outcome error;
            const CUptiResult alone = TryConfig(api, chip, availability, {metric}, &host, &error);
            if (!error.ok()) return error;
            if (alone != CUPTI_SUCCESS) {
                return Fail(GPA_STATUS_ERROR_NOT_FOUND,
                            "CUPTI does not accept metric " + metric + " on " + chip + ": " + api.Describe(alone));
            }
            groupOfUnit.emplace(unit, built.size());
            built.push_back({{metric}, {metric}});
        }
    }
    groups->clear();
    for (Group& group : built) {
        std::unique_ptr<HostObject> host;
        Outcome error;
        const CUptiResult result = TryConfig(api, chip, availability, group.metrics, &host, &error);
        if (!error.ok()) return error;
        if (result == CUPTI_SUCCESS || group.metrics.size() == 1) {
            groups->push_back(std::move(group.metrics));
            continue;
        }
        if (exact) return api.Failure("cuptiProfilerHostConfigAddMetrics (a group CUPTI accepted metric by metric)", result);
        std::vector<std::vector<std::string>> split;
        if (Outcome o = Partition(api, chip, availability, group.metrics, true, &split); !o.ok()) return o;
        for (auto& part : split) groups->push_back(std::move(part));
    }
    return Outcome::Ok();
}

// Orderings tried for a group of `size` metrics (CUPTI takes about a millisecond per metric to schedule).
uint32_t OrderingsFor(size_t size, const PlannerOptions& options) {
    return std::max(1u, size <= 200 ? options.orderings : size <= 1000 ? 2u : 1u);
}

// Candidate orders for one group, the given order first; every order is deterministic.
std::vector<std::vector<std::string>> Orderings(const std::vector<std::string>& metrics, uint32_t wanted) {
    std::vector<std::vector<std::string>> orders = {metrics};
    if (wanted <= 1) return orders;
    std::vector<std::string> byName = metrics;
    std::sort(byName.begin(), byName.end());
    orders.push_back(byName);
    std::vector<std::string> byUnit = metrics;
    std::stable_sort(byUnit.begin(), byUnit.end(),
                     [](const std::string& a, const std::string& b) { return UnitOf(a) < UnitOf(b); });
    orders.push_back(byUnit);
    orders.emplace_back(metrics.rbegin(), metrics.rend());
    std::mt19937 random(20240601u);  // fixed seed: the same metrics always get the same plan
    while (orders.size() < wanted) {
        std::vector<std::string> shuffled = metrics;
        for (size_t i = shuffled.size(); i > 1; --i) std::swap(shuffled[i - 1], shuffled[random() % i]);
        orders.push_back(std::move(shuffled));
    }
    orders.resize(std::min<size_t>(orders.size(), wanted));
    return orders;
}

// The configuration of one metric order: nullopt where CUPTI refuses the order, *error where CUPTI failed.
std::optional<ConfigGroup> MakeConfiguration(const CuptiApi& api, const std::string& chip,
                                             const std::vector<uint8_t>& availability, const std::vector<std::string>& order,
                                             std::unique_ptr<HostObject> host, Outcome* error) {
    if (!host) {
        const CUptiResult result = TryConfig(api, chip, availability, order, &host, error);
        if (!error->ok() || result != CUPTI_SUCCESS) return std::nullopt;
    }
    ConfigGroup made;
    if (Outcome o = host->ConfigImage(&made.configImage); !o.ok()) {
        *error = o;
        return std::nullopt;
    }
    if (Outcome o = ConfigPassCount(api, made.configImage, &made.passes); !o.ok()) {
        *error = o;
        return std::nullopt;
    }
    made.metrics = order;
    made.host = std::move(host);
    return made;
}

// The configurations of `orders` not in the cache yet (nor `madeAlready`), made on up to `threads` threads at
// once and kept in it.
// CUPTI documents no thread safety for its host API; each thread has host objects of its own, and the images
// came out byte for byte as made one at a time (tests/backends/cuda/pass_planner_test.cpp).
Outcome MakeConfigurations(const CuptiApi& api, const std::string& chip, const std::vector<uint8_t>& availability,
                           const std::vector<std::vector<std::string>>& orders, const std::vector<std::string>* madeAlready,
                           uint32_t threads, ConfigurationCache* cache) {
    std::vector<const std::vector<std::string>*> missing;
    for (const std::vector<std::string>& order : orders) {
        const auto same = [&](const std::vector<std::string>* other) { return *other == order; };
        if (cache->byOrder.count(order) == 0 && !(madeAlready && *madeAlready == order) &&
            std::none_of(missing.begin(), missing.end(), same)) {
            missing.push_back(&order);
        }
    }
    if (missing.size() < 2) return Outcome::Ok();  // nothing to do at once
    std::vector<std::optional<ConfigGroup>> made(missing.size());
    std::vector<Outcome> errors(missing.size());
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t i = next++; i < missing.size(); i = next++) {
            made[i] = MakeConfiguration(api, chip, availability, *missing[i], nullptr, &errors[i]);
        }
    };
    std::vector<std::thread> workers;
    const size_t count = std::min<size_t>(threads, missing.size()) - 1;  // and this thread
    for (size_t t = 0; t < count; ++t) workers.emplace_back(work);
    work();
    for (std::thread& worker : workers) worker.join();
    for (size_t i = 0; i < missing.size(); ++i) {
        if (!errors[i].ok()) return errors[i];
        cache->byOrder[*missing[i]] = std::move(made[i]);
    }
    return Outcome::Ok();
}

}  // namespace

uint32_t PlanningThreads() {
    if (const char* text = std::getenv("OPENGPA_CUDA_PLAN_THREADS"); text != nullptr && *text) {
        char* end = nullptr;
        const unsigned long value = std::strtoul(text, &end, 10);
        if (end != text && *end == '\0' && value > 0) return static_cast<uint32_t>(std::min<unsigned long>(value, 64));
    }
    return std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
}

PlannerOptions PlannerOptionsFromEnvironment() {
    PlannerOptions options;
    options.threads = PlanningThreads();
    if (const char* text = std::getenv("OPENGPA_CUDA_MAX_METRICS_PER_CONFIG"); text != nullptr && *text) {
        char* end = nullptr;
        const unsigned long value = std::strtoul(text, &end, 10);
        if (end != text && *end == '\0') options.maxMetricsPerConfiguration = static_cast<uint32_t>(value);
    }
    return options;
}

std::pair<uint32_t, uint32_t> MetricPlan::LocatePass(uint32_t pass) const {
    for (uint32_t g = 0; g < groups.size(); ++g) {
        if (pass < groups[g].passes) return {g, pass};
        pass -= groups[g].passes;
    }
    return {static_cast<uint32_t>(groups.size()), 0};
}

Outcome PlanMetrics(const CuptiApi& api, const std::string& chip, const std::vector<uint8_t>& availability,
                    const std::vector<std::string>& metrics, MetricPlan* plan, PlannerOptions options) {
    std::vector<std::string> unique;
    std::unordered_set<std::string> seen;
    for (const std::string& metric : metrics) {
        if (seen.insert(metric).second) unique.push_back(metric);
    }
    plan->chip = chip;
    plan->groups.clear();
    plan->passCount = 0;
    if (unique.empty()) return Outcome::Ok();

    ConfigurationCache local;
    ConfigurationCache& cache = options.cache ? *options.cache : local;
    // The configuration of `order` (nullopt: CUPTI refused it), from `host` when it already holds the order's
    // metrics, else made now; kept in the cache.
    auto configurationOf = [&](const std::vector<std::string>& order, std::unique_ptr<HostObject> host,
                               Outcome* error) -> std::optional<ConfigGroup> {
        if (auto known = cache.byOrder.find(order); known != cache.byOrder.end()) return known->second;
        std::optional<ConfigGroup> made = MakeConfiguration(api, chip, availability, order, std::move(host), error);
        if (error->ok()) cache.byOrder[order] = made;
        return made;
    };

    if (options.threads > 1 && options.maxMetricsPerConfiguration == 0 && cache.byOrder.count(unique) == 0) {
        // Most sets are one configuration: its orderings made at once, the whole set's own among them.
        if (Outcome o = MakeConfigurations(api, chip, availability, Orderings(unique, OrderingsFor(unique.size(), options)),
                                           nullptr, options.threads, &cache);
            !o.ok()) {
            return o;
        }
    }
    std::vector<std::vector<std::string>> groups;
    std::unique_ptr<HostObject> whole;  // holds every metric in the given order when CUPTI took them at once
    const auto known = cache.byOrder.find(unique);
    if (known != cache.byOrder.end() && known->second) {
        groups.push_back(unique);
    } else {
        std::unique_ptr<HostObject> host;
        Outcome error;
        const CUptiResult result = known != cache.byOrder.end() ? CUPTI_ERROR_NOT_SUPPORTED  // refused before
                                                                : TryConfig(api, chip, availability, unique, &host, &error);
        if (!error.ok()) return error;
        if (result == CUPTI_SUCCESS) {
            groups.push_back(unique);
            whole = std::move(host);  // the first order tried below: not made twice
        } else if (unique.size() <= 64) {
            // Name every metric CUPTI refuses alone, when that is cheap to find out.
            if (Outcome o = RefusedMetrics(api, chip, availability, unique); !o.ok()) return o;
            if (Outcome o = Partition(api, chip, availability, unique, false, &groups); !o.ok()) return o;
        } else {
            if (Outcome o = Partition(api, chip, availability, unique, false, &groups); !o.ok()) return o;
        }
    }

    if (options.maxMetricsPerConfiguration > 0) {
        std::vector<std::vector<std::string>> split;
        for (const std::vector<std::string>& members : groups) {
            for (size_t begin = 0; begin < members.size(); begin += options.maxMetricsPerConfiguration) {
                const size_t end = std::min(members.size(), begin + options.maxMetricsPerConfiguration);
                split.emplace_back(members.begin() + static_cast<std::ptrdiff_t>(begin),
                                   members.begin() + static_cast<std::ptrdiff_t>(end));
            }
        }
        groups = std::move(split);
    }

    for (const std::vector<std::string>& members : groups) {
        const std::vector<std::vector<std::string>> orders = Orderings(members, OrderingsFor(members.size(), options));
        if (options.threads > 1) {
            const std::vector<std::string>* made = whole ? &unique : nullptr;
            if (Outcome o = MakeConfigurations(api, chip, availability, orders, made, options.threads, &cache); !o.ok()) return o;
        }
        ConfigGroup best;
        for (const std::vector<std::string>& order : orders) {
            Outcome error;
            std::unique_ptr<HostObject> host = whole && order == unique ? std::move(whole) : nullptr;
            std::optional<ConfigGroup> candidate = configurationOf(order, std::move(host), &error);
            if (!error.ok()) return error;
            if (!candidate) continue;  // CUPTI accepted the group in another order
            if (best.metrics.empty() || candidate->passes < best.passes) best = std::move(*candidate);
        }
        if (best.metrics.empty()) {
            return Fail(GPA_STATUS_ERROR_FAILED, "CUPTI refused a configuration of " + std::to_string(members.size()) +
                                                     " metrics that it had accepted while grouping them");
        }
        plan->passCount += best.passes;
        if (!options.keepHosts) best.host.reset();
        plan->groups.push_back(std::move(best));
    }
    return Outcome::Ok();
}

Outcome PrepareConfigurations(const CuptiApi& api, const std::string& chip, const std::vector<uint8_t>& availability,
                              const std::vector<SetToPlan>& sets, const PlannerOptions& options) {
    if (options.cache == nullptr) return Fail(GPA_STATUS_ERROR_FAILED, "PrepareConfigurations needs a configuration cache");
    std::vector<std::vector<std::string>> orders;
    for (const SetToPlan& set : sets) {
        std::vector<std::string> unique;
        std::unordered_set<std::string> seen;
        for (const std::string& metric : set.metrics) {
            if (seen.insert(metric).second) unique.push_back(metric);
        }
        if (unique.empty()) continue;
        PlannerOptions forSet = options;
        forSet.orderings = set.orderings;
        for (std::vector<std::string>& order : Orderings(unique, OrderingsFor(unique.size(), forSet))) {
            orders.push_back(std::move(order));
        }
    }
    return MakeConfigurations(api, chip, availability, orders, nullptr, std::max(1u, options.threads), options.cache);
}

CuptiPassPlanner::CuptiPassPlanner(const CuptiApi& api, std::string chip, std::vector<uint8_t> availability,
                                   std::vector<std::string> hardwareNames, PlannerOptions options)
    : api_(api),
      chip_(std::move(chip)),
      availability_(std::move(availability)),
      options_(options),
      hardwareNames_(std::move(hardwareNames)) {
    for (uint32_t i = 0; i < hardwareNames_.size(); ++i) indexOf_.emplace(hardwareNames_[i], i);
}

void CuptiPassPlanner::AddHardwareName(const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex_);
    indexOf_.emplace(name, static_cast<uint32_t>(hardwareNames_.size()));
    hardwareNames_.push_back(name);
}

Outcome CuptiPassPlanner::PlanIndices(const std::vector<uint32_t>& counters, Resolved* resolved) {
    std::vector<std::string> names;
    names.reserve(counters.size());
    {
        std::lock_guard<std::mutex> lock(mutex_);
        for (uint32_t index : counters) {
            if (index >= hardwareNames_.size()) return Fail(GPA_STATUS_ERROR_FAILED, "hardware counter index out of range");
            names.push_back(hardwareNames_[index]);
        }
    }
    auto plan = std::make_shared<MetricPlan>();
    if (Outcome o = PlanMetrics(api_, chip_, availability_, names, plan.get(), options_); !o.ok()) return o;
    resolved->groupCounters.clear();
    std::lock_guard<std::mutex> lock(mutex_);
    for (const ConfigGroup& group : plan->groups) {
        std::vector<uint32_t> indices;
        for (const std::string& metric : group.metrics) indices.push_back(indexOf_.at(metric));
        resolved->groupCounters.push_back(std::move(indices));
    }
    resolved->metrics = std::move(plan);
    return Outcome::Ok();
}

Outcome CuptiPassPlanner::Plan(const std::vector<std::vector<uint32_t>>& counterInputs, PassPlan* plan) {
    std::vector<uint32_t> counters;
    std::unordered_set<uint32_t> seen;
    for (const std::vector<uint32_t>& inputs : counterInputs) {
        for (uint32_t index : inputs) {
            if (seen.insert(index).second) counters.push_back(index);
        }
    }
    Resolved resolved;
    if (Outcome o = PlanIndices(counters, &resolved); !o.ok()) return o;
    // hardwareCounters keeps the order the counters were asked for, so that planning them again (after the
    // cache let the plan go) gives the same groups, orders and passes.
    PassPlan result;
    result.passCount = resolved.metrics->passCount;
    result.hardwareCounters = counters;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (cache_.size() >= 64) cache_.clear();
        cache_[result.hardwareCounters] = std::move(resolved);
    }
    *plan = std::move(result);
    return Outcome::Ok();
}

Outcome CuptiPassPlanner::Resolve(const PassPlan& plan, Resolved* resolved) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = cache_.find(plan.hardwareCounters);
        if (it != cache_.end()) {
            *resolved = it->second;
            return Outcome::Ok();
        }
    }
    if (Outcome o = PlanIndices(plan.hardwareCounters, resolved); !o.ok()) return o;
    if (resolved->metrics->passCount != plan.passCount) {
        return Fail(GPA_STATUS_ERROR_FAILED, "planning the same counters again gave " +
                                                 std::to_string(resolved->metrics->passCount) + " passes instead of " +
                                                 std::to_string(plan.passCount));
    }
    return Outcome::Ok();
}

}  // namespace gpa::cuda
