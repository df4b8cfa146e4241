#pragma once
// libpff (Debian package libpff1), opened with dlopen on the first .pst/.ost read, the library not
// linked. The few functions used are declared here as libpff.h writes them: that header needs
// libbfio's and others' headers for functions not used here. libpff trusts the file's offsets and counts, so it runs
// only in a child process (pst_extract.cpp). Not on Windows: the Windows build has no libpff.
// Internal to the readers library.
#if !defined(_WIN32)
#include <cstddef>
#include <cstdint>
#include <string>

namespace mcpread::readers::pst {

// libpff's handles (its types.h: intptr_t, pointed to). Every function returns 1 when it did
// what was asked, 0 when the value is not there, -1 on an error; the error argument may be null.
using libpff_file_t = std::intptr_t;
using libpff_item_t = std::intptr_t;
using libpff_error_t = std::intptr_t;
using size64_t = std::uint64_t;
inline constexpr int kOpenRead = 0x01;  // LIBPFF_OPEN_READ

using Handle = libpff_item_t*;
using Error = libpff_error_t**;

struct Api {
  int (*file_initialize)(libpff_file_t**, Error);
  int (*file_open)(libpff_file_t*, const char*, int, Error);
  int (*file_close)(libpff_file_t*, Error);
  int (*file_free)(libpff_file_t**, Error);
  int (*root_folder)(libpff_file_t*, libpff_item_t**, Error);
  int (*folder_count)(Handle, int*, Error);
  int (*folder)(Handle, int, libpff_item_t**, Error);
  int (*folder_name_size)(Handle, std::size_t*, Error);
  int (*folder_name)(Handle, std::uint8_t*, std::size_t, Error);
  int (*message_count)(Handle, int*, Error);
  int (*message)(Handle, int, libpff_item_t**, Error);
  int (*string_size)(Handle, std::uint32_t, std::size_t*, Error);
  int (*string)(Handle, std::uint32_t, std::uint8_t*, std::size_t, Error);
  int (*delivery_time)(Handle, std::uint64_t*, Error);
  int (*submit_time)(Handle, std::uint64_t*, Error);
  int (*plain_size)(Handle, std::size_t*, Error);
  int (*plain)(Handle, std::uint8_t*, std::size_t, Error);
  int (*html_size)(Handle, std::size_t*, Error);
  int (*html)(Handle, std::uint8_t*, std::size_t, Error);
  int (*attachment_count)(Handle, int*, Error);
  int (*attachment)(Handle, int, libpff_item_t**, Error);
  int (*attachment_size)(Handle, size64_t*, Error);
  int (*item_string_size)(Handle, int, std::uint32_t, std::size_t*, std::uint8_t, Error);
  int (*item_string)(Handle, int, std::uint32_t, std::uint8_t*, std::size_t, std::uint8_t, Error);
  int (*item_free)(libpff_item_t**, Error);
};

// The table; nullptr with *error saying what is missing ("Reading Outlook data files needs libpff
// (Debian package libpff1): ...").
const Api* api(std::string* error);

}  // namespace mcpread::readers::pst
#endif
