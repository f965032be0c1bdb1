/*
 * The GPA user guide's example (sections 2.2, 2.3, 3 and 7), on Vulkan.
 *
 * It loads the Vulkan GPA library with dlopen and resolves every function it calls with dlsym through the
 * <Function>PtrType typedefs (section 2.2), creates a Vulkan device with what GPA needs
 * (OGPA_vkGetRequirements: OpenGPA's layer VK_LAYER_OPENGPA_gpa_interface and VK_AMD_gpa_interface), opens
 * the counters on it (GPA_vkContextOpenInfo), enables all of them, and renders "frames": each frame is one
 * GPA session; each pass records a command buffer (named with OGPA_SetCommandList) with two samples, the
 * guide's two draw calls: triangles drawn in a render pass, and a compute dispatch. Finished sessions are
 * written to a CSV file by WriteSession (section 7) as soon as they are ready, skipping sessions that newer
 * ones overwrote (section 3.2).
 *
 * Build: the headers in include/ and the Vulkan loader (no link to the GPA library).
 * Run:   gpa_example_vulkan [--library PATH] [--csv FILE] [--frames N] [--iterations N]   (--help for more)
 *        The loader must find the layer: installed, or VK_ADD_LAYER_PATH=<build>/share/vulkan/explicit_layer.d.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "GPUPerfAPI-Vk.h"
#include "GPUPerfAPI.h"
#include "GPUPerfAPIFunctionTypes.h"
#include "vulkan_workload.h"

/* ---- the GPA functions this program uses (section 2.2, step 3: instances of the function types) ---- */

typedef struct {
    GPA_RegisterLoggingCallbackPtrType RegisterLoggingCallback;
    GPA_InitializePtrType Initialize;
    GPA_DestroyPtrType Destroy;
    GPA_OpenContextPtrType OpenContext;
    GPA_CloseContextPtrType CloseContext;
    GPA_GetDeviceDescPtrType GetDeviceDesc;
    GPA_GetNumCountersPtrType GetNumCounters;
    GPA_GetCounterNamePtrType GetCounterName;
    GPA_GetCounterDataTypePtrType GetCounterDataType;
    GPA_GetCounterUsageTypePtrType GetCounterUsageType;
    GPA_GetUsageTypeAsStrPtrType GetUsageTypeAsStr;
    GPA_EnableAllCountersPtrType EnableAllCounters;
    GPA_GetEnabledCountPtrType GetEnabledCount;
    GPA_GetEnabledIndexPtrType GetEnabledIndex;
    GPA_GetPassCountPtrType GetPassCount;
    GPA_BeginSessionPtrType BeginSession;
    GPA_EndSessionPtrType EndSession;
    GPA_BeginPassPtrType BeginPass;
    GPA_EndPassPtrType EndPass;
    GPA_BeginSamplePtrType BeginSample;
    GPA_EndSamplePtrType EndSample;
    GPA_GetSampleCountPtrType GetSampleCount;
    GPA_IsSessionReadyPtrType IsSessionReady;
    GPA_GetSampleUInt32PtrType GetSampleUInt32;
    GPA_GetSampleUInt64PtrType GetSampleUInt64;
    GPA_GetSampleFloat32PtrType GetSampleFloat32;
    GPA_GetSampleFloat64PtrType GetSampleFloat64;
    GPA_GetStatusAsStrPtrType GetStatusAsStr;
    OGPA_SetCommandListPtrType SetCommandList;
} GpaFunctions;

static GpaFunctions gpa;

/* dlsym returns an object pointer; copying its bytes is the portable way to a function pointer in C. */
static int LoadFunction(void* library, const char* name, void* slot, size_t slotSize) {
    void* symbol = dlsym(library, name);
    if (symbol == NULL || slotSize != sizeof symbol) {
        fprintf(stderr, "gpa_example_vulkan: %s is missing from the GPA library (%s)\n", name, dlerror());
        return 0;
    }
    memcpy(slot, &symbol, slotSize);
    return 1;
}

#define LOAD(name) LoadFunction(library, "GPA_" #name, &gpa.name, sizeof gpa.name)

static void* LoadGpa(const char* path) {
    void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL); /* section 2.2, step 4 */
    int ok;
    if (library == NULL) {
        fprintf(stderr, "gpa_example_vulkan: cannot load %s: %s\n", path, dlerror());
        return NULL;
    }
    /* step 5: one dlsym per function */
    ok = LOAD(RegisterLoggingCallback) & LOAD(Initialize) & LOAD(Destroy) & LOAD(OpenContext) & LOAD(CloseContext) &
         LOAD(GetDeviceDesc) & LOAD(GetNumCounters) & LOAD(GetCounterName) & LOAD(GetCounterDataType) &
         LOAD(GetCounterUsageType) & LOAD(GetUsageTypeAsStr) & LOAD(EnableAllCounters) & LOAD(GetEnabledCount) &
         LOAD(GetEnabledIndex) & LOAD(GetPassCount) & LOAD(BeginSession) & LOAD(EndSession) & LOAD(BeginPass) &
         LOAD(EndPass) & LOAD(BeginSample) & LOAD(EndSample) & LOAD(GetSampleCount) & LOAD(IsSessionReady) &
         LOAD(GetSampleUInt32) & LOAD(GetSampleUInt64) & LOAD(GetSampleFloat32) & LOAD(GetSampleFloat64) &
         LOAD(GetStatusAsStr) & LoadFunction(library, "OGPA_SetCommandList", &gpa.SetCommandList, sizeof gpa.SetCommandList);
    if (!ok) {
        dlclose(library);
        return NULL;
    }
    return library;
}

/* Stops the program when a GPA call fails; the logging callback has already said why. */
#define GPA_CHECK(call)                                                                                       \
    do {                                                                                                      \
        GPA_Status status_ = (call);                                                                          \
        if (status_ != GPA_STATUS_OK) {                                                                       \
            fprintf(stderr, "gpa_example_vulkan: %s failed: %s\n", #call, gpa.GetStatusAsStr(status_));              \
            exit(EXIT_FAILURE);                                                                               \
        }                                                                                                     \
    } while (0)

/* A counter a sample has no value of (GPA_STATUS_ERROR_READING_COUNTER_RESULT: on NVIDIA the device-sampled
 * counters of a sample whose window the PM samples do not cover; the logging callback said why) is written as NA,
 * never as a number; its other counters are written as usual. Other failures stop the program. */
static int ReadOrNa(GPA_Status status, const char* what, FILE* f, const char* name) {
    if (status == GPA_STATUS_OK) return 1;
    if (status == GPA_STATUS_ERROR_READING_COUNTER_RESULT) {
        fprintf(f, "NA,");
        printf(" %s = NA", name);
        return 0;
    }
    fprintf(stderr, "%s: %s failed: %s\n", "gpa_example_vulkan", what, gpa.GetStatusAsStr(status));
    exit(EXIT_FAILURE);
}

/* Section 2.3: GPA reports errors and messages through this callback. */
static void MyLoggingFunction(GPA_Logging_Type messageType, const char* message) {
    fprintf(stderr, "GPA %s: %s\n", messageType == GPA_LOGGING_ERROR ? "error" : "message", message);
}

/* ---- section 7: WriteSession ---- */

/* Given a sessionID, query the counter values and save them to a file (and print them). */
static void WriteSession(gpa_uint32 currentWaitSessionID, const char* filename) {
    static int doneHeadings = 0;
    gpa_uint32 count;
    gpa_uint32 sampleCount;
    gpa_uint32 sample;
    gpa_uint32 counter;
    FILE* f;
    GPA_CHECK(gpa.GetEnabledCount(&count));

    if (!doneHeadings) {
        const char* name;
        f = fopen(filename, "w");
        if (f == NULL) {
            perror(filename);
            exit(EXIT_FAILURE);
        }
        fprintf(f, "Identifier, ");
        for (counter = 0; counter < count; counter++) {
            gpa_uint32 enabledCounterIndex;
            GPA_CHECK(gpa.GetEnabledIndex(counter, &enabledCounterIndex));
            GPA_CHECK(gpa.GetCounterName(enabledCounterIndex, &name));
            fprintf(f, "%s, ", name);
        }
        fprintf(f, "\n");
        fclose(f);
        doneHeadings = 1;
    }

    f = fopen(filename, "a+");
    if (f == NULL) {
        perror(filename);
        exit(EXIT_FAILURE);
    }
    GPA_CHECK(gpa.GetSampleCount(currentWaitSessionID, &sampleCount));
    /* The samples of this program have ids 0 .. sampleCount-1, as in the guide. */
    for (sample = 0; sample < sampleCount; sample++) {
        fprintf(f, "session: %" PRIu32 "; sample: %" PRIu32 ", ", currentWaitSessionID, sample);
        printf("session %" PRIu32 " sample %" PRIu32 ":", currentWaitSessionID, sample);
        for (counter = 0; counter < count; counter++) {
            gpa_uint32 enabledCounterIndex;
            GPA_Type type;
            GPA_Usage_Type usage;
            const char* name;
            const char* usageName;
            GPA_CHECK(gpa.GetEnabledIndex(counter, &enabledCounterIndex));
            GPA_CHECK(gpa.GetCounterDataType(enabledCounterIndex, &type));
            GPA_CHECK(gpa.GetCounterName(enabledCounterIndex, &name));
            GPA_CHECK(gpa.GetCounterUsageType(enabledCounterIndex, &usage));
            GPA_CHECK(gpa.GetUsageTypeAsStr(usage, &usageName));
            if (type == GPA_TYPE_UINT32) {
                gpa_uint32 value;
                if (ReadOrNa(gpa.GetSampleUInt32(currentWaitSessionID, sample, enabledCounterIndex, &value), "gpa.GetSampleUInt32", f, name)) {
                    fprintf(f, "%" PRIu32 ",", value);
                    printf(" %s = %" PRIu32 " (%s)", name, value, usageName);
                }
            } else if (type == GPA_TYPE_UINT64) {
                gpa_uint64 value;
                if (ReadOrNa(gpa.GetSampleUInt64(currentWaitSessionID, sample, enabledCounterIndex, &value), "gpa.GetSampleUInt64", f, name)) {
                    fprintf(f, "%" PRIu64 ",", value); /* the guide's %I64u is Windows-only */
                    printf(" %s = %" PRIu64 " (%s)", name, value, usageName);
                }
            } else if (type == GPA_TYPE_FLOAT32) {
                gpa_float32 value;
                if (ReadOrNa(gpa.GetSampleFloat32(currentWaitSessionID, sample, enabledCounterIndex, &value), "gpa.GetSampleFloat32", f, name)) {
                    fprintf(f, "%f,", value);
                    printf(" %s = %f (%s)", name, value, usageName);
                }
            } else if (type == GPA_TYPE_FLOAT64) {
                gpa_float64 value;
                if (ReadOrNa(gpa.GetSampleFloat64(currentWaitSessionID, sample, enabledCounterIndex, &value), "gpa.GetSampleFloat64", f, name)) {
                    fprintf(f, "%f,", value);
                    printf(" %s = %f (%s)", name, value, usageName);
                }
            } else {
                fprintf(stderr, "gpa_example_vulkan: counter %s has an unexpected type %d\n", name, (int)type);
                exit(EXIT_FAILURE);
            }
        }
        fprintf(f, "\n");
        printf("\n");
    }
    fclose(f);
}

/* ---- the guide's two draw calls ---- */

enum { kTriangles = 1000, kGroups = 64 };

static void DrawCall(Workload* w, VkCommandBuffer commandBuffer, int which, uint32_t iterations) {
    if (which == 0) {
        BeginRenderPass(w, commandBuffer);
        DrawTriangles(w, commandBuffer, kTriangles);
        EndRenderPass(w, commandBuffer);
    } else {
        Dispatch(w, commandBuffer, kGroups, iterations);
    }
}

/* ---- main: section 3 ---- */

static void Usage(void) {
    printf("usage: gpa_example_vulkan [--library PATH] [--csv FILE] [--frames N] [--iterations N]\n"
           "\n"
           "Runs the GPA user guide's example on Vulkan: every frame is one GPA session whose passes sample\n"
           "a draw of %d triangles and a dispatch of %d workgroups; finished sessions go to the CSV file\n"
           "(section 7) and to stdout.\n"
           "\n"
           "  --library PATH   the Vulkan GPA library to dlopen. Default: $OPENGPA_LIBRARY, else\n"
           "                   libGPUPerfAPIVK.so found through LD_LIBRARY_PATH (section 2.14).\n"
           "  --csv FILE       where WriteSession writes (default GPUPerfAPI-Example-Vulkan.csv)\n"
           "  --frames N       frames (sessions) to render (default 8)\n"
           "  --iterations N   loop length of the compute shader (default 2000)\n"
           "\n"
           "The Vulkan loader must find OpenGPA's layer (installed, or VK_ADD_LAYER_PATH pointing at the folder\n"
           "of VkLayer_opengpa_gpa_interface.json); the first Vulkan device runs the work.\n",
           kTriangles, kGroups);
}

int main(int argc, char** argv) {
    const char* libraryPath = getenv("OPENGPA_LIBRARY");
    const char* csv = "GPUPerfAPI-Example-Vulkan.csv";
    int frames = 8, frame, i;
    uint32_t iterations = 2000;
    void* library;
    Workload w;
    GPA_vkContextOpenInfo openInfo;
    const char* description;
    gpa_uint32 counterCount, c;
    gpa_uint32 currentWaitSessionID = 1;
    gpa_uint32 lastSessionID = 0;

    if (libraryPath == NULL || libraryPath[0] == '\0') libraryPath = "libGPUPerfAPIVK.so";
    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            Usage();
            return EXIT_SUCCESS;
        } else if (strcmp(argv[i], "--library") == 0 && i + 1 < argc) {
            libraryPath = argv[++i];
        } else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
            csv = argv[++i];
        } else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            frames = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
            iterations = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else {
            Usage();
            return EXIT_FAILURE;
        }
    }

    library = LoadGpa(libraryPath);
    if (library == NULL) return EXIT_FAILURE;

    /* 3.1 Startup */
    GPA_CHECK(gpa.RegisterLoggingCallback(GPA_LOGGING_ERROR_AND_MESSAGE, MyLoggingFunction));
    GPA_CHECK(gpa.Initialize());
    CreateWorkload(&w);
    openInfo.instance = w.instance;
    openInfo.physicalDevice = w.physicalDevice;
    openInfo.device = w.device;
    GPA_CHECK(gpa.OpenContext(&openInfo, GPA_OPENCONTEXT_DEFAULT_BIT));
    GPA_CHECK(gpa.EnableAllCounters());
    GPA_CHECK(gpa.GetDeviceDesc(&description));
    GPA_CHECK(gpa.GetNumCounters(&counterCount));
    printf("device: %s; %" PRIu32 " counters:", description, counterCount);
    for (c = 0; c < counterCount; ++c) {
        const char* name;
        GPA_CHECK(gpa.GetCounterName(c, &name));
        printf(" %s", name);
    }
    printf("\n");

    /* 3.2 Render loop */
    for (frame = 0; frame < frames; ++frame) {
        gpa_uint32 sessionID;
        gpa_uint32 numRequiredPasses;
        gpa_uint32 pass;
        bool readyResult = false;

        GPA_CHECK(gpa.BeginSession(&sessionID));
        GPA_CHECK(gpa.GetPassCount(&numRequiredPasses));
        for (pass = 0; pass < numRequiredPasses; pass++) {
            VkCommandBuffer commandBuffer = BeginCommands(&w);
            GPA_CHECK(gpa.BeginPass());
            GPA_CHECK(gpa.SetCommandList((void*)commandBuffer)); /* the samples below record into it */
            GPA_CHECK(gpa.BeginSample(0));
            DrawCall(&w, commandBuffer, 0, iterations);
            GPA_CHECK(gpa.EndSample());
            GPA_CHECK(gpa.BeginSample(1));
            DrawCall(&w, commandBuffer, 1, iterations);
            GPA_CHECK(gpa.EndSample());
            GPA_CHECK(gpa.EndPass()); /* before vkEndCommandBuffer: the pass ends in this command buffer */
            SubmitCommands(&w, commandBuffer);
        }
        GPA_CHECK(gpa.EndSession());
        lastSessionID = sessionID;

        if (sessionID != currentWaitSessionID) {
            GPA_Status sessionStatus = gpa.IsSessionReady(&readyResult, currentWaitSessionID);
            while (sessionStatus == GPA_STATUS_ERROR_SESSION_NOT_FOUND) {
                /* skipping a session which got overwritten */
                printf("session %" PRIu32 " was overwritten before it was read; skipped\n", currentWaitSessionID);
                currentWaitSessionID++;
                sessionStatus = gpa.IsSessionReady(&readyResult, currentWaitSessionID);
            }
            GPA_CHECK(sessionStatus);
            if (readyResult) {
                WriteSession(currentWaitSessionID, csv);
                currentWaitSessionID++;
            }
        }
    }

    /* Before closing: write the sessions still in flight. */
    WaitIdle(&w);
    while (currentWaitSessionID <= lastSessionID) {
        bool readyResult = false;
        GPA_Status sessionStatus = gpa.IsSessionReady(&readyResult, currentWaitSessionID);
        if (sessionStatus == GPA_STATUS_ERROR_SESSION_NOT_FOUND) {
            printf("session %" PRIu32 " was overwritten before it was read; skipped\n", currentWaitSessionID);
            currentWaitSessionID++;
            continue;
        }
        GPA_CHECK(sessionStatus);
        if (!readyResult) {
            fprintf(stderr, "gpa_example_vulkan: session %" PRIu32 " is not ready after the queue went idle\n",
                    currentWaitSessionID);
            return EXIT_FAILURE;
        }
        WriteSession(currentWaitSessionID, csv);
        currentWaitSessionID++;
    }

    /* 3.3 On exit: GPA first, while the device still exists. */
    GPA_CHECK(gpa.CloseContext());
    ReleaseWorkload(&w);
    GPA_CHECK(gpa.Destroy());
    dlclose(library);
    printf("wrote %s\n", csv);
    return EXIT_SUCCESS;
}
