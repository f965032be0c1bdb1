// The reusable CUDA profiling pieces, for tools such as gpaprof (link the opengpa_cuda library):
//
//   const gpa::cuda::CuptiApi* cupti;  gpa::cuda::LoadCupti(&cupti);          // CUPTI, opened at run time
//   gpa::cuda::ChipCounters chip;      gpa::cuda::BuildChipCounters(*cupti, "GH100", {}, &chip);
//       chip.hardware (raw metrics), chip.derived (GPA counters), chip.Catalog(derived, hardware)
//   gpa::cuda::MetricPlan plan;        gpa::cuda::PlanMetrics(*cupti, "GH100", {}, metricNames, &plan);
//   std::unique_ptr<gpa::cuda::KernelReplayProfiler> profiler;
//   gpa::cuda::KernelReplayProfiler::Create(cuContext, &profiler);           // chip and availability of the device
//   profiler->Plan(metricNames, &plan);
//   profiler->Profile(plan, launchOnce, &valuesPerKernel, maxKernels);        // kernel replay, auto ranges
//
// Every function answers a gpa::Outcome (status and reason); nothing here needs a GPU except the profiler.
#pragma once

#include "backends/cuda/chip_counters.h"
#include "backends/cuda/counter_data_fixture.h"
#include "backends/cuda/cupti_loader.h"
#include "backends/cuda/cupti_pass_planner.h"
#include "backends/cuda/gpa_compute_counters.h"
#include "backends/cuda/kernel_replay_profiler.h"
