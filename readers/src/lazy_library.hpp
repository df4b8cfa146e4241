#pragma once
// A shared library opened on first use (dlopen; LoadLibraryExW on Windows), and the table of
// functions taken from it. Libraries only some files need (libvips, the PDF plugin, ICU, libxml2,
// libzip) are loaded this way so that the server's start-up and its other reads never pay for
// them. A library stays loaded for the life of the process: unloading GLib- or poppler-based
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
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace mcpread::readers {

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
// The address of `name` in the library `handle`, or nullptr (dlsym; GetProcAddress on Windows).
void* symbol(void* handle, const char* name);
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
  // The candidate that loaded, as named in the spec.
  [[nodiscard]] const std::string& library() const { return library_; }

 private:
  void* handle_;
  const LibrarySpec& spec_;
  std::string library_;
  std::string* error_;
};

namespace lazy_library_detail {
// Opens the first candidate that loads; nullptr with "<needs>: <dlerror() of each candidate>" in
// *error when none does.
void* open(const LibrarySpec& spec, std::string* library, std::string* error);
}  // namespace lazy_library_detail

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

}  // namespace mcpread::readers
