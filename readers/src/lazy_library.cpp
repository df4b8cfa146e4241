#include "lazy_library.hpp"
#include "mcpread/common/platform.hpp"

#if defined(_WIN32)
#include "mcpread/common/windows_text.hpp"
#else
#include <dlfcn.h>
#endif

namespace mcpread::readers::lazy_library_detail {

#if defined(_WIN32)
namespace {

// The system's text for a LoadLibrary error, like dlerror()'s: "<name>: <why>".
std::string load_error(const std::string& name, DWORD code) {
  wchar_t* text = nullptr;
  const DWORD n = ::FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                                       FORMAT_MESSAGE_IGNORE_INSERTS,
                                   nullptr, code, 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
  std::string why = n > 0 ? platform::windows::narrow(std::wstring_view(text, n)) : std::string();
  if (text != nullptr) ::LocalFree(text);
  while (!why.empty() && (why.back() == '\n' || why.back() == '\r' || why.back() == ' ' || why.back() == '.'))
    why.pop_back();
  if (why.empty()) why = "cannot be loaded";
  return name + ": " + why + " (Windows error " + std::to_string(code) + ")";
}

// What needs the library, as a Windows user should read it: the bundle ships every DLL in its
// bin folder beside mcp-read.exe, where a Debian package's name would only mislead.
std::string needs_here(const std::string& needs) {
  const auto at = needs.find(" (Debian package");
  if (at == std::string::npos) return needs;
  const auto end = needs.find(')', at);
  return needs.substr(0, at) + " (a DLL the Windows bundle ships in bin\\ beside mcp-read.exe: reinstall mcp-read)" +
         (end == std::string::npos ? std::string() : needs.substr(end + 1));
}

}  // namespace
#else
namespace {
const std::string& needs_here(const std::string& needs) { return needs; }
}  // namespace
#endif

void* open(const LibrarySpec& spec, std::string* library, std::string* error) {
  std::string reasons;
  for (const std::string& name : spec.candidates) {
    const std::string file = platform::library_file_name(name);
#if defined(_WIN32)
    // Searched in the executable's folder and System32 only, never the current folder (a DLL
    // planted there would run with the server's rights). A full path's own folder is searched for
    // its dependencies (the PDF plugin's poppler DLLs beside it).
    const bool full = file.size() > 2 && (file[1] == ':' || (file[0] == '\\' && file[1] == '\\'));
    const DWORD flags = LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | (full ? LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR : 0);
    if (HMODULE handle = ::LoadLibraryExW(platform::windows::widen(file).c_str(), nullptr, flags);
        handle != nullptr) {
      *library = name;
      return reinterpret_cast<void*>(handle);
    }
    const std::string why = load_error(file, ::GetLastError());
#else
    // RTLD_LOCAL: the library's symbols are reached through dlsym only, never by other libraries.
    // Sonames are Linux's; the system's own file name elsewhere (libvips.42.dylib on macOS).
    if (void* handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL); handle != nullptr) {
      *library = name;
      return handle;
    }
    const char* err = ::dlerror();
    const std::string why = err != nullptr ? std::string(err) : name + ": cannot be loaded";
#endif
    if (!reasons.empty()) reasons += "; ";
    reasons += why;
  }
  *error = needs_here(spec.needs) + ": " + (reasons.empty() ? std::string("no library to load") : reasons);
  return nullptr;
}

void* symbol(void* handle, const char* name) {
#if defined(_WIN32)
  const FARPROC proc = ::GetProcAddress(reinterpret_cast<HMODULE>(handle), name);
  void* address = nullptr;
  static_assert(sizeof proc == sizeof address);
  std::memcpy(&address, &proc, sizeof address);  // function pointer to object pointer, no cast
  return address;
#else
  return ::dlsym(handle, name);
#endif
}

}  // namespace mcpread::readers::lazy_library_detail
