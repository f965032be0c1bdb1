// The table of commands waiting for their activity records (src/tools/gpaprof/cuda/correlation_table.h): ids
// in the array, ids whose place is taken in the overflow map, and every operation the same for both.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "tools/gpaprof/cuda/correlation_table.h"

namespace gpaprof::cuda {
namespace {

using Table = CorrelationTable<int>;

TEST(CorrelationTable, FindsWhatWasInsertedUntilItIsErased) {
    Table table;
    int a = 1, b = 2;
    EXPECT_EQ(table.Find(7), nullptr);
    EXPECT_TRUE(table.Insert(7, &a));
    EXPECT_FALSE(table.Insert(7, &b));  // registered already: unchanged
    EXPECT_EQ(table.Find(7), &a);
    EXPECT_TRUE(table.Insert(8, &a));   // two ids of one command
    EXPECT_EQ(table.size(), 2u);
    EXPECT_EQ(table.Erase(7), &a);
    EXPECT_EQ(table.Erase(7), nullptr);
    EXPECT_EQ(table.Find(7), nullptr);
    EXPECT_EQ(table.Find(8), &a);
    EXPECT_EQ(table.size(), 1u);
}

TEST(CorrelationTable, IdsWhosePlaceIsTakenGoToTheOverflow) {
    Table table;
    int a = 1, b = 2, c = 3;
    const uint32_t first = 5, second = 5 + Table::kSlots, third = 5 + 2 * Table::kSlots;  // one place
    EXPECT_TRUE(table.Insert(first, &a));
    EXPECT_TRUE(table.Insert(second, &b));
    EXPECT_TRUE(table.Insert(third, &c));
    EXPECT_EQ(table.overflowed(), 2u);
    EXPECT_EQ(table.Find(first), &a);
    EXPECT_EQ(table.Find(second), &b);
    EXPECT_EQ(table.Find(third), &c);
    EXPECT_FALSE(table.Insert(second, &a));
    EXPECT_EQ(table.Erase(first), &a);  // the place is free again; the others stay found
    EXPECT_EQ(table.Find(second), &b);
    EXPECT_EQ(table.Find(third), &c);
    int d = 4;
    EXPECT_TRUE(table.Insert(5 + 3 * Table::kSlots, &d));
    EXPECT_EQ(table.Find(5 + 3 * Table::kSlots), &d);
    EXPECT_EQ(table.Erase(second), &b);
    EXPECT_EQ(table.Erase(third), &c);
    EXPECT_EQ(table.size(), 1u);
}

// Against a std::map, on ids that advance like CUPTI's (mostly in order, some waiting long, some far ahead).
TEST(CorrelationTable, BehavesAsAMap) {
    Table table;
    std::map<uint32_t, int*> model;
    std::vector<int> values(64);
    std::mt19937 random(2026);
    uint32_t next = 1;
    for (int step = 0; step < 400000; ++step) {
        const uint32_t roll = random() % 100;
        uint32_t id = 0;
        if (roll < 45) {
            id = next;
            next += 1 + random() % 6;
        } else if (roll < 50) {
            id = next + static_cast<uint32_t>(Table::kSlots) * (1 + random() % 3);  // the same place as a nearer one
        } else {
            id = model.empty() ? next : std::next(model.begin(), random() % std::min<size_t>(model.size(), 8))->first;
        }
        int* value = &values[random() % values.size()];
        if (roll < 80) {
            const bool inserted = table.Insert(id, value);
            EXPECT_EQ(inserted, model.emplace(id, value).second);
        } else {
            int* erased = table.Erase(id);
            auto found = model.find(id);
            EXPECT_EQ(erased, found == model.end() ? nullptr : found->second);
            if (found != model.end()) model.erase(found);
        }
        ASSERT_EQ(table.size(), model.size());
    }
    for (const auto& [id, value] : model) EXPECT_EQ(table.Find(id), value);
    size_t visited = 0;
    table.ForEach([&](uint32_t id, int* value) {
        ++visited;
        EXPECT_EQ(model.at(id), value);
    });
    EXPECT_EQ(visited, model.size());
    EXPECT_GT(table.overflowed(), 0u);
}

}  // namespace
}  // namespace gpaprof::cuda
