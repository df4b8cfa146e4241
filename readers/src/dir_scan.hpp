#pragma once
// The entries of one directory, as the system lists them: readdir() on POSIX systems (with
// d_type, so most entries need no stat), FindFirstFileW/FindNextFileW through std::filesystem
// on Windows. Internal to the readers library (listing.cpp, the OCR language list).
#include <filesystem>
#include <functional>
#include <string_view>
#include <system_error>

namespace mcpread::readers::dir_scan {

// Calls `each` with every entry's name (UTF-8 bytes as the file system holds them) and whether it
// is a directory or a link to one, "." and ".." left out, until `each` returns false. An empty
// error code, or why the directory could not be read (entries seen before a failure were passed).
std::error_code scan(const std::filesystem::path& dir,
                     const std::function<bool(std::string_view name, bool directory)>& each);

}  // namespace mcpread::readers::dir_scan
