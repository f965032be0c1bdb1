#include "exported_symbols.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>

namespace opengpa::testing {

std::vector<std::string> ExportedSymbols(const std::string& path, std::string* error) {
    std::ifstream file(path, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::vector<std::string> names;
    if (bytes.size() < sizeof(Elf64_Ehdr) || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0 ||
        bytes[EI_CLASS] != ELFCLASS64) {
        *error = path + " is not a 64-bit ELF file";
        return names;
    }
    Elf64_Ehdr header;
    std::memcpy(&header, bytes.data(), sizeof header);
    if (header.e_shoff + static_cast<size_t>(header.e_shnum) * header.e_shentsize > bytes.size()) {
        *error = path + ": its section headers lie past the end of the file";
        return names;
    }
    std::vector<Elf64_Shdr> sections(header.e_shnum);
    for (size_t i = 0; i < sections.size(); ++i) {
        std::memcpy(&sections[i], bytes.data() + header.e_shoff + i * header.e_shentsize, sizeof(Elf64_Shdr));
    }
    for (const Elf64_Shdr& section : sections) {
        if (section.sh_type != SHT_DYNSYM) continue;
        const Elf64_Shdr& strings = sections.at(section.sh_link);
        for (size_t offset = 0; offset + sizeof(Elf64_Sym) <= section.sh_size; offset += sizeof(Elf64_Sym)) {
            Elf64_Sym symbol;
            std::memcpy(&symbol, bytes.data() + section.sh_offset + offset, sizeof symbol);
            if (symbol.st_shndx == SHN_UNDEF || symbol.st_name == 0) continue;  // imported, or the null entry
            if (ELF64_ST_BIND(symbol.st_info) == STB_LOCAL) continue;
            const unsigned visibility = ELF64_ST_VISIBILITY(symbol.st_other);
            if (visibility == STV_HIDDEN || visibility == STV_INTERNAL) continue;
            names.emplace_back(bytes.data() + strings.sh_offset + symbol.st_name);
        }
    }
    return names;
}

}  // namespace opengpa::testing
