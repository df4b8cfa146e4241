#pragma once
// A shared library opened on first use (dlopen; LoadLibraryExW on Windows), and the table of
// functions taken from it. Libraries only some files need (libvips, the PDF plugin, ICU, libxml2,
// libzip) are loaded this way so that the server's start-up and its other reads never pay for
// them (and the server's OAuth libraries, only with --oauth-issuer). A library stays loaded for the life of the process: unloading GLib- or poppler-based
// libraries is unsafe.
//
//   struct Api { decltype(&::zip_open) open; ... };
//   const Api* api(std::string* error) {
//     static const LazyLibrary<Api> lib(
//         {.needs = "reading office documents needs libzip (Debian package libzip4)",
//          .candidates = {"libzip.so.4"}},
//         [](SymbolBinder& bind, Api& a) { return bind(&a.open, "zip_open") && ...; });
//     return lib.get(error);
//   }
#include "mcpread/common/platform.hpp"

#if defined(_WIN32)
#include "mcpread/common/windows_text.hpp"
#else
#include <dlfcn.h>
#endif

#include <cstring>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mcpread {

struct LibrarySpec {
  // The start of every error text: what needs the library and which package brings it, e.g.
  // "Reading images needs libvips 8.14 or later (Debian package libvips42)".
  std::string needs{};
  // Sonames or paths, tried in order; the first that loads is used.
  std::vector<std::string> candidates{};
  // Appended to every symbol name (ICU exports ucnv_open_72).
  std::string symbol_suffix{};
  // Follows "<library> has no <symbol>", e.g. " (rebuild mcp-read and the plugin together)".
  std::string missing_advice{};
};

namespace lazy_library_detail {
#if defined(_WIN32)

// The system's text for a LoadLibrary error, like dlerror()'s: "<name>: <why>".
inline std::string load_error(const std::string& name, DWORD code) {
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
inline std::string needs_here(const std::string& needs) {
  const auto at = needs.find(" (Debian package");
  if (at == std::string::npos) return needs;
  const auto end = needs.find(')', at);
  return needs.substr(0, at) + " (a DLL the Windows bundle ships in bin\\ beside mcp-read.exe: reinstall mcp-read)" +
         (end == std::string::npos ? std::string() : needs.substr(end + 1));
}

#else
inline const std::string& needs_here(const std::string& needs) { return needs; }
#endif

// Opens the first candidate that loads; nullptr with "<needs>: <dlerror() of each candidate>" in
// *error when none does.
inline void* open(const LibrarySpec& spec, std::string* library, std::string* error) {
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

// The address of `name` in the library `handle`, or nullptr (dlsym; GetProcAddress on Windows).
inline void* symbol(void* handle, const char* name) {
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

}  // namespace lazy_library_detail

// Handed to a binding function: takes typed symbols from the library just opened.
class SymbolBinder {
 public:
  SymbolBinder(void* handle, const LibrarySpec& spec, std::string library, std::string* error)
      : handle_(handle), spec_(spec), library_(std::move(library)), error_(error) {}

  // Stores the address of `name` (plus the spec's suffix) in *slot as its function-pointer type;
  // false, with "<needs>: <library> has no <name>" as the error, when the library lacks it.
  template <class Fn>
  bool operator()(Fn* slot, const char* name) {
    const std::string full = name + spec_.symbol_suffix;
    void* sym = lazy_library_detail::symbol(handle_, full.c_str());
    if (sym == nullptr) return fail(library_ + " has no " + full + spec_.missing_advice);
    static_assert(sizeof(Fn) == sizeof(void*));
    std::memcpy(slot, &sym, sizeof sym);  // object pointer to function pointer, without a cast
    return true;
  }
  // A failure after the symbols (a library that does not start, an interface version that does
  // not match): the error becomes "<needs>: <why>". Always false.
  bool fail(const std::string& why) {
    *error_ = spec_.needs + ": " + why;
    return false;
  }
  // Another library the same table takes functions from (liboauth2's jansson and libcurl): a
  // binder for `soname`, or nullopt with "<needs>: <why it did not load>" as the error.
  std::optional<SymbolBinder> also(const std::string& soname) {
    LibrarySpec other = spec_;
    other.candidates = {soname};
    std::string library;
    void* handle = lazy_library_detail::open(other, &library, error_);
    if (handle == nullptr) return std::nullopt;
    return SymbolBinder(handle, spec_, library, error_);
  }
  // The candidate that loaded, as named in the spec.
  [[nodiscard]] const std::string& library() const { return library_; }

 private:
  void* handle_;
  const LibrarySpec& spec_;
  std::string library_;
  std::string* error_;
};

template <class Api>
class LazyLibrary {
 public:
  // `bind` fills the table (and may start the library); false when the library cannot be used,
  // with the error set through the binder.
  using Bind = std::function<bool(SymbolBinder&, Api&)>;
  LazyLibrary(LibrarySpec spec, Bind bind) : spec_(std::move(spec)), bind_(std::move(bind)) {}

  // The table, loaded on the first call (once, whichever thread comes first); nullptr when the
  // library cannot be used, *error (when given) then naming the library and why (dlerror(), a
  // missing symbol). The error is a clause without a final period.
  const Api* get(std::string* error = nullptr) const {
    std::call_once(once_, [this] { load(); });
    if (!error_.empty()) {
      if (error != nullptr) *error = error_;
      return nullptr;
    }
    return &api_;
  }

 private:
  void load() const {
    std::string library;
    void* handle = lazy_library_detail::open(spec_, &library, &error_);
    if (handle == nullptr) return;
    SymbolBinder binder(handle, spec_, library, &error_);
    if (!bind_(binder, api_)) {
      if (error_.empty()) error_ = spec_.needs + ": " + library + " cannot be used";
      api_ = Api{};
    }
  }

  LibrarySpec spec_;
  Bind bind_;
  mutable std::once_flag once_;
  mutable Api api_{};
  mutable std::string error_;  // empty when api_ is usable
};

}  // namespace mcpread
