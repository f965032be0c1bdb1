#include "tools/gpaprof/cuda/cubin_globals.h"

#include <elf.h>

#include <cstring>
#include <utility>

namespace gpaprof::cuda {
namespace {

// Reads a T at `offset` of the image (the image need not be aligned); false when it lies outside.
template <typename T>
bool ReadAt(const uint8_t* image, size_t size, uint64_t offset, T* out) {
    if (offset > size || size - offset < sizeof(T)) return false;
    std::memcpy(out, image + offset, sizeof(T));
    return true;
}

// The NUL-terminated string at `offset` of a string table section; empty when it runs off the table.
std::string StringAt(const uint8_t* image, size_t size, const Elf64_Shdr& table, uint64_t offset) {
    if (table.sh_offset > size || offset >= table.sh_size || table.sh_size > size - table.sh_offset) return {};
    const char* begin = reinterpret_cast<const char*>(image + table.sh_offset + offset);
    const size_t room = table.sh_size - offset;
    const size_t length = strnlen(begin, room);
    if (length == room) return {};
    return std::string(begin, length);
}

bool IsGlobalSection(const std::string& name) {
    return name == ".nv.global" || name.rfind(".nv.global.", 0) == 0;
}

}  // namespace

std::optional<CubinContents> ReadCubinContents(const void* bytes, size_t size, std::string* problem) {
    const auto* image = static_cast<const uint8_t*>(bytes);
    Elf64_Ehdr header;
    if (!image || !ReadAt(image, size, 0, &header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
        *problem = "not an ELF image";
        return std::nullopt;
    }
    if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB) {
        *problem = "not a 64-bit little-endian ELF image";
        return std::nullopt;
    }
    if (header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shnum == 0) {
        *problem = "the ELF image has no section table";
        return std::nullopt;
    }
    std::vector<Elf64_Shdr> sections(header.e_shnum);
    for (size_t i = 0; i < sections.size(); ++i) {
        if (!ReadAt(image, size, header.e_shoff + i * sizeof(Elf64_Shdr), &sections[i])) {
            *problem = "the ELF section table runs past the end of the image";
            return std::nullopt;
        }
    }
    if (header.e_shstrndx >= sections.size()) {
        *problem = "the ELF image has no section name table";
        return std::nullopt;
    }
    const Elf64_Shdr& names = sections[header.e_shstrndx];
    std::vector<std::string> sectionNames(sections.size());
    for (size_t i = 0; i < sections.size(); ++i) sectionNames[i] = StringAt(image, size, names, sections[i].sh_name);

    CubinContents contents;
    std::vector<CubinDataSection>& data = contents.sections;
    std::vector<int> dataIndex(sections.size(), -1);  // section -> its entry in data
    for (size_t i = 0; i < sections.size(); ++i) {
        if (!IsGlobalSection(sectionNames[i]) || sections[i].sh_size == 0) continue;
        dataIndex[i] = static_cast<int>(data.size());
        data.push_back({sectionNames[i], sections[i].sh_size, {}});
    }
    for (const Elf64_Shdr& table : sections) {
        if (table.sh_type != SHT_SYMTAB) continue;
        if (table.sh_entsize != sizeof(Elf64_Sym) || table.sh_link >= sections.size()) {
            *problem = "the ELF symbol table is malformed";
            return std::nullopt;
        }
        const Elf64_Shdr& strings = sections[table.sh_link];
        const uint64_t count = table.sh_size / sizeof(Elf64_Sym);
        for (uint64_t s = 0; s < count; ++s) {
            Elf64_Sym symbol;
            if (!ReadAt(image, size, table.sh_offset + s * sizeof(Elf64_Sym), &symbol)) {
                *problem = "the ELF symbol table runs past the end of the image";
                return std::nullopt;
            }
            // Linked cubins (what the driver loads) mark variables STT_OBJECT; relocatable ones (-rdc, before
            // nvlink) use the CUDA-specific STT_LOPROC + 0 (STT_CUDA_OBJECT).
            const unsigned type = ELF64_ST_TYPE(symbol.st_info);
            if (type == STT_FUNC && symbol.st_shndx != SHN_UNDEF) {
                if (std::string name = StringAt(image, size, strings, symbol.st_name); !name.empty()) {
                    contents.functions.push_back(std::move(name));
                }
                continue;
            }
            if ((type != STT_OBJECT && type != STT_LOPROC) || symbol.st_size == 0) continue;
            if (symbol.st_shndx == SHN_UNDEF || symbol.st_shndx >= sections.size()) continue;
            if (dataIndex[symbol.st_shndx] < 0) continue;
            CubinGlobal global;
            global.name = StringAt(image, size, strings, symbol.st_name);
            if (global.name.empty()) continue;
            global.offset = symbol.st_value;
            global.size = symbol.st_size;
            data[dataIndex[symbol.st_shndx]].globals.push_back(std::move(global));
        }
    }
    return contents;
}

}  // namespace gpaprof::cuda
