#include "tools/gpaprof/cuda/caller_frames.h"

#include <algorithm>
#include <cstring>

#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <link.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpaprof::cuda {
namespace {

bool StartsWith(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

std::string ReadLink(const char* path) {
    char buffer[4096];
    const ssize_t length = readlink(path, buffer, sizeof buffer - 1);
    if (length <= 0) return {};
    return std::string(buffer, static_cast<size_t>(length));
}

// A read-only mapping of a whole file.
class MappedFile {
public:
    explicit MappedFile(const std::string& path) {
        const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return;
        struct stat info;
        if (fstat(fd, &info) == 0 && info.st_size > 0) {
            void* data = mmap(nullptr, static_cast<size_t>(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
            if (data != MAP_FAILED) {
                data_ = static_cast<const uint8_t*>(data);
                size_ = static_cast<size_t>(info.st_size);
            }
        }
        close(fd);
    }
    ~MappedFile() {
        if (data_) munmap(const_cast<uint8_t*>(data_), size_);
    }
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    const uint8_t* data() const { return data_; }
    size_t size() const { return size_; }

private:
    const uint8_t* data_ = nullptr;
    size_t size_ = 0;
};

}  // namespace

std::string KernelOfLaunchStub(const std::string& name) {
    static const std::string kStub = "__device_stub__";
    const size_t at = name.find(kStub);
    if (at == std::string::npos) return {};
    // In a mangled name the identifier "__device_stub__Z6kernelPf" is preceded by its length.
    size_t digits = at;
    while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9') --digits;
    size_t length = name.size() - at;
    if (digits < at) length = std::min(length, static_cast<size_t>(std::stoul(name.substr(digits, at - digits))));
    if (length <= kStub.size()) return {};
    const std::string rest = name.substr(at + kStub.size(), length - kStub.size());
    return rest[0] == 'Z' ? "_" + rest : rest;
}

bool IsCudaRuntimeSymbol(const std::string& name) {
    // libcudart_static_<hash>: the static runtime's internal functions.
    return StartsWith(name, "cuda") || StartsWith(name, "__cuda") || StartsWith(name, "_ZN6cudart") ||
           StartsWith(name, "cudart") || StartsWith(name, "libcudart_static_") ||
           name.find("__device_stub__") != std::string::npos;
}

std::pair<uint64_t, uint64_t> FunctionRange(const std::string& path, const std::string& wanted) {
    MappedFile file(path);
    const uint8_t* data = file.data();
    if (!data || file.size() < sizeof(Elf64_Ehdr) || std::memcmp(data, ELFMAG, SELFMAG) != 0 ||
        data[EI_CLASS] != ELFCLASS64) {
        return {0, 0};
    }
    Elf64_Ehdr header;
    std::memcpy(&header, data, sizeof header);
    if (header.e_shoff == 0 || header.e_shentsize != sizeof(Elf64_Shdr) ||
        header.e_shoff + static_cast<uint64_t>(header.e_shnum) * sizeof(Elf64_Shdr) > file.size()) {
        return {0, 0};
    }
    std::vector<Elf64_Shdr> sections(header.e_shnum);
    std::memcpy(sections.data(), data + header.e_shoff, sections.size() * sizeof(Elf64_Shdr));
    for (const Elf64_Shdr& section : sections) {
        if ((section.sh_type != SHT_SYMTAB && section.sh_type != SHT_DYNSYM) || section.sh_entsize != sizeof(Elf64_Sym) ||
            section.sh_link >= sections.size()) {
            continue;
        }
        const Elf64_Shdr& strings = sections[section.sh_link];
        if (section.sh_offset + section.sh_size > file.size() || strings.sh_offset + strings.sh_size > file.size()) continue;
        const size_t count = section.sh_size / sizeof(Elf64_Sym);
        for (size_t i = 0; i < count; ++i) {
            Elf64_Sym symbol;
            std::memcpy(&symbol, data + section.sh_offset + i * sizeof(Elf64_Sym), sizeof symbol);
            if (ELF64_ST_TYPE(symbol.st_info) != STT_FUNC || symbol.st_size == 0 || symbol.st_name >= strings.sh_size) continue;
            const char* text = reinterpret_cast<const char*>(data + strings.sh_offset + symbol.st_name);
            const size_t limit = strings.sh_size - symbol.st_name;
            if (strnlen(text, limit) == limit || wanted != text) continue;
            return {symbol.st_value, symbol.st_value + symbol.st_size};
        }
    }
    return {0, 0};
}

std::vector<std::pair<uint64_t, uint64_t>> CudaRuntimeRanges(const std::string& path, bool* relative) {
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    *relative = true;
    MappedFile file(path);
    const uint8_t* data = file.data();
    if (!data || file.size() < sizeof(Elf64_Ehdr) || std::memcmp(data, ELFMAG, SELFMAG) != 0 ||
        data[EI_CLASS] != ELFCLASS64) {
        return ranges;
    }
    Elf64_Ehdr header;
    std::memcpy(&header, data, sizeof header);
    *relative = header.e_type == ET_DYN;
    if (header.e_shoff == 0 || header.e_shentsize != sizeof(Elf64_Shdr) ||
        header.e_shoff + static_cast<uint64_t>(header.e_shnum) * sizeof(Elf64_Shdr) > file.size()) {
        return ranges;
    }
    std::vector<Elf64_Shdr> sections(header.e_shnum);
    std::memcpy(sections.data(), data + header.e_shoff, sections.size() * sizeof(Elf64_Shdr));
    // The full symbol table when the file has one (not stripped), else the dynamic one. Two passes: the
    // runtime's functions and nvcc's launch stubs, then the kernels' host wrappers that call those stubs
    // (named like the kernel: __device_stub__Z6kernelPf belongs to the host function _Z6kernelPf).
    for (uint32_t wanted : {static_cast<uint32_t>(SHT_SYMTAB), static_cast<uint32_t>(SHT_DYNSYM)}) {
        std::vector<std::string> hostWrappers;
        for (int pass = 0; pass < 2; ++pass) {
            for (const Elf64_Shdr& section : sections) {
                if (section.sh_type != wanted || section.sh_entsize != sizeof(Elf64_Sym) ||
                    section.sh_link >= sections.size()) {
                    continue;
                }
                const Elf64_Shdr& strings = sections[section.sh_link];
                if (section.sh_offset + section.sh_size > file.size() || strings.sh_offset + strings.sh_size > file.size()) {
                    continue;
                }
                const size_t count = section.sh_size / sizeof(Elf64_Sym);
                for (size_t i = 0; i < count; ++i) {
                    Elf64_Sym symbol;
                    std::memcpy(&symbol, data + section.sh_offset + i * sizeof(Elf64_Sym), sizeof symbol);
                    if (ELF64_ST_TYPE(symbol.st_info) != STT_FUNC || symbol.st_size == 0 || symbol.st_value == 0) continue;
                    if (symbol.st_name >= strings.sh_size) continue;
                    const char* text = reinterpret_cast<const char*>(data + strings.sh_offset + symbol.st_name);
                    const size_t limit = strings.sh_size - symbol.st_name;
                    if (strnlen(text, limit) == limit) continue;
                    const std::string name = text;
                    if (pass == 0) {
                        if (IsCudaRuntimeSymbol(name)) ranges.push_back({symbol.st_value, symbol.st_value + symbol.st_size});
                        const std::string wrapper = KernelOfLaunchStub(name);
                        if (!wrapper.empty()) hostWrappers.push_back(wrapper);
                    } else if (std::find(hostWrappers.begin(), hostWrappers.end(), name) != hostWrappers.end()) {
                        ranges.push_back({symbol.st_value, symbol.st_value + symbol.st_size});
                    }
                }
            }
            if (hostWrappers.empty()) break;
        }
        if (!ranges.empty()) break;
    }
    std::sort(ranges.begin(), ranges.end());
    return ranges;
}

void CallerLocator::SkipModuleOf(const void* address) {
    Dl_info info;
    if (!address || !dladdr(address, &info) || !info.dli_fbase) return;
    std::lock_guard<std::mutex> lock(mutex_);
    skippedBases_.push_back(reinterpret_cast<uintptr_t>(info.dli_fbase));
    modules_.clear();
}

void CallerLocator::SkipModuleNamed(std::string part) {
    std::lock_guard<std::mutex> lock(mutex_);
    skippedNames_.push_back(std::move(part));
    modules_.clear();
}

bool CallerLocator::InRanges(const std::vector<std::pair<uint64_t, uint64_t>>& ranges, uint64_t address) {
    auto range = std::upper_bound(ranges.begin(), ranges.end(), std::make_pair(address, UINT64_MAX));
    return range != ranges.begin() && address < std::prev(range)->second;
}

CallerLocator::Module& CallerLocator::ModuleAt(uintptr_t base, const char* path) {
    auto found = modules_.find(base);
    if (found != modules_.end()) return found->second;
    Module module;
    module.skipped = std::find(skippedBases_.begin(), skippedBases_.end(), base) != skippedBases_.end();
    const std::string file = path ? path : "";
    for (const std::string& part : skippedNames_) module.skipped = module.skipped || file.find(part) != std::string::npos;
    module.runtime = file.find("libcudart") != std::string::npos;
    module.path = file.empty() || file[0] != '/' ? ReadLink("/proc/self/exe") : file;
    if (!module.skipped && !module.runtime) module.runtimeRanges = CudaRuntimeRanges(module.path, &module.relative);
    return modules_.emplace(base, std::move(module)).first->second;
}

std::optional<spool::SourceRecord> CallerLocator::Locate(const std::string& apiName, const std::string& skipSymbol) {
    void* frames[64];
    const int count = backtrace(frames, 64);
    std::lock_guard<std::mutex> lock(mutex_);
    for (int i = 1; i < count; ++i) {
        Dl_info info;
        std::memset(&info, 0, sizeof info);
        const uintptr_t address = reinterpret_cast<uintptr_t>(frames[i]);
        if (!dladdr(frames[i], &info) || !info.dli_fbase) continue;
        const uintptr_t base = reinterpret_cast<uintptr_t>(info.dli_fbase);
        Module& module = ModuleAt(base, info.dli_fname);
        if (module.skipped || module.runtime) continue;
        // The return address lies just after the call instruction, inside the calling function.
        const uint64_t inFile = (module.relative ? address - base : address) - 1;
        if (InRanges(module.runtimeRanges, inFile)) continue;
        if (info.dli_sname && IsCudaRuntimeSymbol(info.dli_sname)) continue;
        if (!skipSymbol.empty()) {
            // The kernel's host wrapper (nvcc names it like the kernel) is not the caller either.
            auto named = module.namedRanges.find(skipSymbol);
            if (named == module.namedRanges.end()) {
                named = module.namedRanges.emplace(skipSymbol, FunctionRange(module.path, skipSymbol)).first;
            }
            if (inFile >= named->second.first && inFile < named->second.second) continue;
        }
        spool::SourceRecord record;
        record.part = "cuda";
        record.apiName = apiName;
        record.module = module.path;
        record.moduleBase = base;
        if (info.dli_sname) {
            record.symbol = info.dli_sname;
            record.symbolAddress = reinterpret_cast<uintptr_t>(info.dli_saddr);
        }
        record.address = address;
        return record;
    }
    return std::nullopt;
}

bool CallerLocator::CalledByCudaRuntime() {
    void* frames[32];
    const int count = backtrace(frames, 32);
    std::lock_guard<std::mutex> lock(mutex_);
    for (int i = 1; i < count; ++i) {
        Dl_info info;
        std::memset(&info, 0, sizeof info);
        if (!dladdr(frames[i], &info) || !info.dli_fbase) continue;
        const uintptr_t base = reinterpret_cast<uintptr_t>(info.dli_fbase);
        Module& module = ModuleAt(base, info.dli_fname);
        if (module.skipped) continue;
        if (module.runtime) return true;
        const uintptr_t address = reinterpret_cast<uintptr_t>(frames[i]);
        const uint64_t inFile = (module.relative ? address - base : address) - 1;
        return InRanges(module.runtimeRanges, inFile) || (info.dli_sname && IsCudaRuntimeSymbol(info.dli_sname));
    }
    return false;
}

bool CallerLocator::CalledFromModule(bool (*matches)(std::string_view path)) {
    void* frames[64];
    const int count = backtrace(frames, 64);
    for (int i = 1; i < count; ++i) {
        Dl_info info;
        std::memset(&info, 0, sizeof info);
        if (dladdr(frames[i], &info) && info.dli_fname && matches(info.dli_fname)) return true;
    }
    return false;
}

namespace {

int ReadAdds(struct dl_phdr_info* info, size_t, void* adds) {
    *static_cast<unsigned long long*>(adds) = info->dlpi_adds;
    return 1;  // the count is the same in every object's entry: one is enough
}

struct LoadedScan {
    bool (*matches)(std::string_view);
    bool found = false;
};

int ScanLoaded(struct dl_phdr_info* info, size_t, void* data) {
    auto* scan = static_cast<LoadedScan*>(data);
    if (info->dlpi_name && scan->matches(info->dlpi_name)) {
        scan->found = true;
        return 1;
    }
    return 0;
}

}  // namespace

bool CallerLocator::ModuleLoaded(bool (*matches)(std::string_view path)) {
    unsigned long long adds = 0;
    dl_iterate_phdr(&ReadAdds, &adds);
    std::lock_guard<std::mutex> lock(mutex_);
    if (scannedFor_ != matches || adds != scannedAdds_) {
        LoadedScan scan{matches};
        dl_iterate_phdr(&ScanLoaded, &scan);
        scannedFor_ = matches;
        scannedAdds_ = adds;
        scannedLoaded_ = scan.found;
    }
    return scannedLoaded_;
}

std::string CallerLocator::ModulesOnStack() {
    void* frames[64];
    const int count = backtrace(frames, 64);
    std::string modules, last;
    for (int i = 1; i < count; ++i) {
        Dl_info info;
        std::memset(&info, 0, sizeof info);
        if (!dladdr(frames[i], &info) || !info.dli_fname) continue;
        std::string name = info.dli_fname;
        name = name.substr(name.rfind('/') + 1);
        if (name == last) continue;
        modules += (modules.empty() ? "" : " < ") + name;
        last = std::move(name);
    }
    return modules;
}

}  // namespace gpaprof::cuda
