// Writes the report fixtures as files for the CTest scripts (JSON validity, headless Chromium):
//   gpaprof_report_fixture_writer DIR  ->  DIR/fixture.atp, DIR/fixture.csv, DIR/fixture.occupancy, DIR/cuda.atp,
//                                          DIR/cuda.pmsampling.csv
#include <cstdio>
#include <string>

#include "report_fixture.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/occupancy_file.h"
#include "tools/gpaprof/files/pm_sampling_file.h"

int main(int argc, char** argv) {
    using namespace gpaprof;
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    std::string error;
    if (!WriteAtpFile(dir + "/fixture.atp", report::testing::OpenClFixture(), &error) ||
        !WriteCsvFile(dir + "/fixture.csv", report::testing::CsvFixture(), &error) ||
        !WriteOccupancyFile(dir + "/fixture.occupancy", report::testing::OccupancyFixture(), &error) ||
        !WriteAtpFile(dir + "/cuda.atp", report::testing::CudaFixture(), &error) ||
        !WritePmSamplingFile(dir + "/cuda.pmsampling.csv", report::testing::PmSamplingFixture(), &error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    return 0;
}
