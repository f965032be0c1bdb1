// The counters a context exposes: derived (GPA) counters compiled against the backend's hardware
// counters, and optionally the hardware counters themselves. A derived counter whose inputs the
// device lacks is left out and the reason kept, never exposed with a made-up value.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "counters/counter_definition.h"
#include "counters/expression.h"

namespace gpa {

struct ExposedCounter {
    std::string name;
    std::string group;
    std::string description;
    GPA_Type type = GPA_TYPE_FLOAT64;
    GPA_Usage_Type usage = GPA_USAGE_TYPE_ITEMS;
    std::vector<uint32_t> hardware;         // indices into the backend's hardware counter list
    std::optional<Expression> expression;  // derived counters; raw hardware counters have none
    std::string definition;                // expression text, or the hardware counter's name
};

struct OmittedCounter {
    std::string name;
    std::string reason;
};

class CounterCatalog {
public:
    struct Options {
        bool exposeDerived = true;
        bool exposeHardware = false;
    };

    static CounterCatalog Build(const std::vector<HardwareCounter>& hardware,
                                const std::vector<DerivedCounterDefinition>& derived, Options options);

    const Options& options() const { return options_; }

    // Exposes one more hardware counter (hardware counter index `hardwareIndex`) after the others; its index,
    // or nullopt when a counter of that name (any letter case) is there already.
    std::optional<uint32_t> AddHardware(const HardwareCounter& raw, uint32_t hardwareIndex);

    size_t size() const { return counters_.size(); }
    const ExposedCounter& at(size_t index) const { return *counters_.at(index); }
    auto counters() const {
        return counters_ | std::views::transform([](const auto& counter) -> const ExposedCounter& { return *counter; });
    }

    // Case-insensitive look-up by name.
    std::optional<uint32_t> Find(std::string_view name) const;

    // Derived counters defined by the backend but not exposed on this device, with why.
    const std::vector<OmittedCounter>& omitted() const { return omitted_; }

    // Value of counter `index` given hardware values indexed by hardware counter index.
    double Evaluate(uint32_t index, std::span<const double> hardwareValues) const;

private:
    void Add(ExposedCounter counter);

    Options options_;
    // Shared and never changed: a copy of the catalog (one that grew by AddHardware) shares them, so the names
    // and descriptions GPA hands out stay valid however the catalog grows.
    std::vector<std::shared_ptr<const ExposedCounter>> counters_;
    std::vector<OmittedCounter> omitted_;
    std::unordered_map<std::string, uint32_t> byLowerName_;
};

std::string ToLower(std::string_view text);

}  // namespace gpa
