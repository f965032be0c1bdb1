// CUPTI's parameter structs of the oldest driver functions (cuMemAllocHost) use types cuda.h declares only for
// the driver's own build, as in cuda_api_table.cpp.
#define __CUDA_API_VERSION_INTERNAL 1

#include "tools/gpaprof/cuda/memory_calls.h"

#include <cupti_driver_cbid.h>
#include <generated_cuda_meta.h>

namespace gpaprof::cuda {
namespace {

uint64_t Address(const void* pointer) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pointer)); }

template <typename Params>
const Params& As(const void* params) {
    return *static_cast<const Params*>(params);
}

}  // namespace

bool IsAllocationCall(uint32_t cbid) {
    switch (cbid) {
        case CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync:
        case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz:
        case CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync:
        case CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync_ptsz:
        case CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged:
        case CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost:
        case CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc:
        case CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuMemMap:
        case CUPTI_DRIVER_TRACE_CBID_cuIpcOpenMemHandle_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuMemPoolImportPointer:
            return true;
        default:
            return false;
    }
}

bool IsMemoryCall(uint32_t cbid) {
    if (IsAllocationCall(cbid)) return true;
    switch (cbid) {
        case CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync:
        case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz:
        case CUPTI_DRIVER_TRACE_CBID_cuMemFreeHost:
        case CUPTI_DRIVER_TRACE_CBID_cuMemHostUnregister:
        case CUPTI_DRIVER_TRACE_CBID_cuMemUnmap:
        case CUPTI_DRIVER_TRACE_CBID_cuIpcCloseMemHandle:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceGetMappedPointer_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuModuleLoad:
        case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData:
        case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx:
        case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary:
        case CUPTI_DRIVER_TRACE_CBID_cuModuleUnload:
        case CUPTI_DRIVER_TRACE_CBID_cuModuleGetGlobal_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuLibraryGetGlobal:
        case CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData:
        case CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadFromFile:
        case CUPTI_DRIVER_TRACE_CBID_cuLibraryUnload:
        case CUPTI_DRIVER_TRACE_CBID_cuArrayCreate_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuArray3DCreate_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayCreate:
        case CUPTI_DRIVER_TRACE_CBID_cuArrayDestroy:
        case CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayDestroy:
        case CUPTI_DRIVER_TRACE_CBID_cuCtxEnablePeerAccess:
        case CUPTI_DRIVER_TRACE_CBID_cuCtxDisablePeerAccess:
        case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture:
        case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz:
        case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz:
        case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph:
        case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz:
        case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture:
        case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz:
            return true;
        default:
            return false;
    }
}

void TrackMemoryCall(DeviceMemoryMap* map, uint32_t cbid, const void* params, CUcontext context, bool succeeded,
                     MemoryOwner owner) {
    if (!params) return;
    const int capture = GraphCaptureChange(cbid, succeeded);
    if (capture < 0) map->CaptureEnded();
    if (capture > 0) map->CaptureBegan();
    if (capture != 0 || !succeeded) return;
    switch (cbid) {
        case CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2: {
            const auto& p = As<cuMemAlloc_v2_params>(params);
            if (p.dptr) map->Allocated(context, MemoryKind::Device, *p.dptr, p.bytesize, owner);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2: {
            const auto& p = As<cuMemAllocPitch_v2_params>(params);
            if (p.dptr && p.pPitch) map->Allocated(context, MemoryKind::Device, *p.dptr, *p.pPitch * p.Height, owner);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync:
        case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz: {
            const auto& p = As<cuMemAllocAsync_params>(params);  // the _ptsz struct has the same layout
            if (p.dptr) map->Allocated(context, MemoryKind::Device, *p.dptr, p.bytesize, owner);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync:
        case CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync_ptsz: {
            const auto& p = As<cuMemAllocFromPoolAsync_params>(params);
            if (p.dptr) map->Allocated(context, MemoryKind::Device, *p.dptr, p.bytesize, owner);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2:
            map->Freed(As<cuMemFree_v2_params>(params).dptr);
            break;
        case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync:
        case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz:
            map->Freed(As<cuMemFreeAsync_params>(params).dptr);
            break;
        case CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged: {
            const auto& p = As<cuMemAllocManaged_params>(params);
            if (p.dptr) map->Allocated(context, MemoryKind::Managed, *p.dptr, p.bytesize, owner);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost: {
            const auto& p = As<cuMemAllocHost_params>(params);
            if (p.pp) map->Allocated(context, MemoryKind::HostPinned, Address(*p.pp), p.bytesize, owner);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost_v2: {
            const auto& p = As<cuMemAllocHost_v2_params>(params);
            if (p.pp) map->Allocated(context, MemoryKind::HostPinned, Address(*p.pp), p.bytesize, owner);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc: {
            const auto& p = As<cuMemHostAlloc_params>(params);
            if (p.pp) map->Allocated(context, MemoryKind::HostPinned, Address(*p.pp), p.bytesize, owner);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuMemFreeHost:
            map->Freed(Address(As<cuMemFreeHost_params>(params).p));
            break;
        case CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister_v2: {
            const auto& p = As<cuMemHostRegister_v2_params>(params);
            map->Allocated(context, MemoryKind::HostRegistered, Address(p.p), p.bytesize, owner);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuMemHostUnregister:
            map->Freed(Address(As<cuMemHostUnregister_params>(params).p));
            break;
        case CUPTI_DRIVER_TRACE_CBID_cuMemMap: {
            const auto& p = As<cuMemMap_params>(params);
            map->Allocated(context, MemoryKind::VirtualMapped, p.ptr, p.size, owner);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuMemUnmap: {
            const auto& p = As<cuMemUnmap_params>(params);
            map->Unmapped(p.ptr, p.size);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuIpcOpenMemHandle_v2: {
            const auto& p = As<cuIpcOpenMemHandle_v2_params>(params);
            if (p.pdptr) map->Allocated(context, MemoryKind::Imported, *p.pdptr, 1, owner);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuIpcCloseMemHandle:
            map->Freed(As<cuIpcCloseMemHandle_params>(params).dptr);
            break;
        case CUPTI_DRIVER_TRACE_CBID_cuMemPoolImportPointer: {
            const auto& p = As<cuMemPoolImportPointer_params>(params);
            if (p.ptr_out) map->Allocated(context, MemoryKind::Imported, *p.ptr_out, 1, owner);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceGetMappedPointer_v2: {
            const auto& p = As<cuGraphicsResourceGetMappedPointer_v2_params>(params);
            if (p.pDevPtr) map->Allocated(context, MemoryKind::Imported, *p.pDevPtr, p.pSize ? *p.pSize : 1, owner);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuModuleLoad:
        case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData:
        case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx:
        case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary: {
            // Every one of these structs starts with the CUmodule* it fills.
            const auto& p = As<cuModuleLoad_params>(params);
            if (p.module) map->ModuleKnown(context, *p.module);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuModuleUnload:
            map->ModuleUnloaded(As<cuModuleUnload_params>(params).hmod);
            break;
        case CUPTI_DRIVER_TRACE_CBID_cuModuleGetGlobal_v2: {
            const auto& p = As<cuModuleGetGlobal_v2_params>(params);
            if (p.hmod) map->ModuleKnown(context, p.hmod);
            if (p.dptr && p.bytes) map->GlobalSeen(context, p.name ? p.name : "", *p.dptr, *p.bytes);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuLibraryGetGlobal: {
            const auto& p = As<cuLibraryGetGlobal_params>(params);
            if (p.library) map->LibraryKnown(p.library);
            if (p.dptr && p.bytes) map->GlobalSeen(context, p.name ? p.name : "", *p.dptr, *p.bytes);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData: {
            const auto& p = As<cuLibraryLoadData_params>(params);
            if (p.library) map->LibraryKnown(*p.library);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadFromFile: {
            const auto& p = As<cuLibraryLoadFromFile_params>(params);
            if (p.library) map->LibraryKnown(*p.library);
            break;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuLibraryUnload:
            map->LibraryUnloaded(As<cuLibraryUnload_params>(params).library);
            break;
        case CUPTI_DRIVER_TRACE_CBID_cuArrayCreate_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuArray3DCreate_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayCreate:
            map->ArrayCreated(context);
            break;
        case CUPTI_DRIVER_TRACE_CBID_cuArrayDestroy:
        case CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayDestroy:
            map->ArrayDestroyed(context);
            break;
        case CUPTI_DRIVER_TRACE_CBID_cuCtxEnablePeerAccess:
            map->PeerAccessEnabled(context);
            break;
        case CUPTI_DRIVER_TRACE_CBID_cuCtxDisablePeerAccess:
            map->PeerAccessDisabled(context);
            break;
        default:
            break;
    }
}

int GraphCaptureChange(uint32_t cbid, bool succeeded) {
    switch (cbid) {
        case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture:
        case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz:
        case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz:
        case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph:
        case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz:
            return succeeded ? 1 : 0;
        case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture:
        case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz:
            return -1;
        default:
            return 0;
    }
}

}  // namespace gpaprof::cuda
