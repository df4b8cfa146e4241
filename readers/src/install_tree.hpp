#pragma once
// Where the running executable is, and the files installed beside it: an install tree (the .deb's
// /usr, `cmake --install --prefix DIR`, the portable bundle of scripts/release.sh) keeps working
// wherever it is moved, because the data it ships is found relative to bin/.
#include <string>
#include <string_view>

namespace mcpread::readers {

// The directory of /proc/self/exe; empty when it cannot be read.
std::string executable_directory();

// "<executable directory>/../<relative>" when that file or directory exists, else empty
// (e.g. installed_file("share/misc/magic.mgc")).
std::string installed_file(std::string_view relative);

}  // namespace mcpread::readers
