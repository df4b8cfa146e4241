// Windows path rules for the roots check (common/windows_paths.hpp). The text rules run on every
// system (they are plain string functions); the cases under _WIN32 open real files and run in the
// cross-built mcpread_platform_tests under Wine, where a case Wine cannot model is skipped with
// its reason printed.
#include <doctest/doctest.h>

#include <string>

#include "mcpread/common/windows_paths.hpp"

using namespace mcpread::platform::windows_paths;

namespace {
Parsed parse(const std::string& p) {
  std::string why;
  const auto parsed = parse_absolute(p, &why);
  INFO(p << ": " << why);
  REQUIRE(parsed.has_value());
  return *parsed;
}
std::string refusal(const std::string& p) {
  std::string why;
  CHECK_MESSAGE(!parse_absolute(p, &why).has_value(), p);
  return why;
}
}  // namespace

TEST_CASE("windows paths: drive letters, either separator, . and .. applied") {
  const Parsed p = parse("c:/Users\\ann/./docs\\..\\notes.txt");
  CHECK(p.volume == "C:");
  CHECK(p.parts == std::vector<std::string>{"Users", "ann", "notes.txt"});
  CHECK(to_string(p) == "C:\\Users\\ann\\notes.txt");
  CHECK(to_string(parse("D:\\")) == "D:\\");
  // ".." stops at the volume, as Windows resolves it: it never leaves the drive.
  CHECK(to_string(parse("C:\\a\\..\\..\\..\\b")) == "C:\\b");
}

TEST_CASE("windows paths: UNC and \\\\?\\ forms name the same volumes") {
  CHECK(to_string(parse("\\\\server\\share\\dir\\f.txt")) == "\\\\server\\share\\dir\\f.txt");
  CHECK(to_string(parse("//server/share/dir")) == "\\\\server\\share\\dir");
  CHECK(to_string(parse("\\\\?\\C:\\long\\path")) == "C:\\long\\path");
  CHECK(to_string(parse("\\\\?\\UNC\\server\\share\\x")) == "\\\\server\\share\\x");
  CHECK(to_string(parse("\\\\?\\unc\\server\\share")) == "\\\\server\\share\\");
}

TEST_CASE("windows paths: what is not an absolute file path is refused, with why") {
  CHECK(refusal("notes.txt").find("not an absolute path") != std::string::npos);
  CHECK(refusal("C:notes.txt").find("drive-relative") != std::string::npos);
  CHECK(refusal("\\Windows\\win.ini").find("drive letter") != std::string::npos);
  CHECK(refusal("\\\\server").find("server and a share") != std::string::npos);
  CHECK(refusal("\\\\.\\PhysicalDrive0").find("device or volume") != std::string::npos);
  CHECK(refusal("\\\\?\\Volume{0b1c}\\x").find("device or volume") != std::string::npos);
  CHECK(refusal("\\\\?\\GLOBALROOT\\Device\\X").find("device or volume") != std::string::npos);
  // A \\?\ path reaches the file system as written: no .. is resolved for it, so none is allowed.
  CHECK(refusal("\\\\?\\C:\\root\\..\\secret").find("may not contain") != std::string::npos);
}

TEST_CASE("windows paths: containment is by component and ignores case") {
  const Parsed root = parse("C:\\Users\\Ann");
  CHECK(within(root, parse("c:\\users\\ann\\Notes\\a.txt")));
  CHECK(within(root, parse("C:\\USERS\\ANN")));
  CHECK_FALSE(within(root, parse("C:\\Users\\Anna\\a.txt")));  // a prefix of the name only
  CHECK_FALSE(within(root, parse("D:\\Users\\Ann\\a.txt")));   // another drive
  CHECK_FALSE(within(root, parse("C:\\Users\\Ann\\..\\Bob\\a.txt")));
  CHECK_FALSE(within(root, parse("C:\\Users")));
  const Parsed share = parse("\\\\srv\\Data\\team");
  CHECK(within(share, parse("\\\\SRV\\data\\Team\\x")));
  CHECK(within(share, parse("\\\\?\\UNC\\srv\\data\\team\\x")));
  CHECK_FALSE(within(share, parse("\\\\srv\\other\\team\\x")));
}

TEST_CASE("windows paths: names Windows would open as something else are refused") {
  for (const char* device : {"CON", "con", "NUL", "nul.txt", "PRN", "AUX", "COM1", "lpt9.log",
                             "CON .txt", "COM\xC2\xB9", "CONIN$"}) {
    CAPTURE(device);
    CHECK(component_problem(device).find("reserved device name") != std::string::npos);
  }
  for (const char* fine : {"CONSOLE", "nullable.txt", "COM10", "com", "a.con", "AUXILIARY"}) {
    CAPTURE(fine);
    CHECK(component_problem(fine).empty());
  }
  CHECK(component_problem("notes.txt.").find("dot or a space") != std::string::npos);
  CHECK(component_problem("notes.txt ").find("dot or a space") != std::string::npos);
  CHECK(component_problem("notes.txt:hidden").find("alternate data stream") != std::string::npos);
  CHECK(component_problem("notes.txt::$DATA").find("alternate data stream") != std::string::npos);
  CHECK(component_problem("a?b").find("does not allow") != std::string::npos);
  CHECK(component_problem(".").empty());
  CHECK(component_problem("..").empty());
  CHECK(path_problem(parse("C:\\ok\\NUL\\x")).find("NUL") != std::string::npos);
  CHECK(path_problem(parse("C:\\ok\\fine.txt")).empty());
}

TEST_CASE("windows paths: 8.3 short names are recognised as aliases") {
  CHECK(looks_short("PROGRA~1"));
  CHECK(looks_short("LONGNA~2.TXT"));
  CHECK(looks_short("A~12"));
  CHECK_FALSE(looks_short("~temp"));
  CHECK_FALSE(looks_short("notes~.txt"));
  CHECK_FALSE(looks_short("backup~old"));
  CHECK_FALSE(looks_short("LONGNA~2.text"));
}

#if defined(_WIN32)
#include <winioctl.h>  // FSCTL_SET_REPARSE_POINT

#include <cstring>
#include <vector>

namespace {
// A fresh folder under the temporary folder: the process id and a count keep runs apart (Wine
// reuses process ids within one prefix).
std::string make_scratch(const char* tag) {
  static int made = 0;
  wchar_t tmp[MAX_PATH + 1];
  REQUIRE(::GetTempPathW(MAX_PATH + 1, tmp) > 0);
  const std::string dir = mcpread::platform::windows::narrow(tmp) + "mcpread-" + tag + "-" +
                          std::to_string(::GetCurrentProcessId()) + "-" +
                          std::to_string(::GetTickCount64()) + "-" + std::to_string(++made);
  REQUIRE(::CreateDirectoryW(mcpread::platform::windows::widen(dir).c_str(), nullptr));
  return dir;
}
void write_file(const std::string& path) {
  const HANDLE h = ::CreateFileW(mcpread::platform::windows::widen(path).c_str(), GENERIC_WRITE, 0,
                                 nullptr, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
  REQUIRE(h != INVALID_HANDLE_VALUE);
  DWORD n = 0;
  ::WriteFile(h, "text\n", 5, &n, nullptr);
  ::CloseHandle(h);
}
}  // namespace

TEST_CASE("windows paths: a file's final path lies in its folder, whatever case it was named in") {
  const std::string dir = make_scratch("final");
  write_file(dir + "\\Note.txt");
  std::string why;
  const auto root = final_path(dir, &why);
  REQUIRE_MESSAGE(root.has_value(), why);
  const auto file = final_path(dir + "\\NOTE.TXT", &why);
  REQUIRE_MESSAGE(file.has_value(), why);
  CHECK(within(*root, *file));
  CHECK(same_name(file->parts.back(), "note.txt"));
  CHECK_FALSE(final_path(dir + "\\missing.txt", &why).has_value());
  CHECK(why.find("cannot be opened") != std::string::npos);
}

TEST_CASE("windows paths: names compare as NTFS compares them, beyond ASCII") {
  CHECK(same_name("\xC3\x89t\xC3\xA9", "\xC3\xA9T\xC3\x89"));  // Été, éTÉ
  CHECK_FALSE(same_name("\xC3\xA9", "e"));
}

TEST_CASE("windows paths: a short name resolves to the long one") {
  const std::string dir = make_scratch("short");
  const std::string long_path = dir + "\\A long file name.txt";
  write_file(long_path);
  wchar_t shorter[MAX_PATH + 1];
  const DWORD n = ::GetShortPathNameW(mcpread::platform::windows::widen(long_path).c_str(), shorter,
                                      MAX_PATH + 1);
  const std::string short_path = mcpread::platform::windows::narrow(std::wstring(shorter, n));
  if (n == 0 || short_path.find('~') == std::string::npos) {
    MESSAGE("skipped: this file system gives no 8.3 short name (Wine keeps none): " << short_path);
    return;
  }
  std::string why;
  const auto resolved = final_path(short_path, &why);
  REQUIRE_MESSAGE(resolved.has_value(), why);
  CHECK(resolved->parts.back() == "A long file name.txt");
}

TEST_CASE("windows paths: a symbolic link out of a root resolves outside it") {
  const std::string root_dir = make_scratch("root"), outside = make_scratch("outside");
  write_file(outside + "\\secret.txt");
  const std::string link = root_dir + "\\link.txt";
  const BOOL made = ::CreateSymbolicLinkW(mcpread::platform::windows::widen(link).c_str(),
                                          mcpread::platform::windows::widen(outside + "\\secret.txt").c_str(),
                                          SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE);
  // Wine 8's CreateSymbolicLinkW is a stub that reports success and makes nothing: the link is
  // checked for, not assumed.
  const DWORD attributes = ::GetFileAttributesW(mcpread::platform::windows::widen(link).c_str());
  if (!made || attributes == INVALID_FILE_ATTRIBUTES || (attributes & FILE_ATTRIBUTE_REPARSE_POINT) == 0) {
    MESSAGE("skipped: no symbolic link could be made here (CreateSymbolicLinkW gave "
            << made << ", error " << ::GetLastError() << "; Wine 8 only pretends to make one)");
    return;
  }
  std::string why;
  const auto root = final_path(root_dir, &why);
  REQUIRE_MESSAGE(root.has_value(), why);
  const auto target = final_path(link, &why);
  REQUIRE_MESSAGE(target.has_value(), why);
  CHECK_FALSE(within(*root, *target));
  CHECK(target->parts.back() == "secret.txt");
}

TEST_CASE("windows paths: a junction out of a root resolves outside it") {
  const std::string root_dir = make_scratch("jroot"), outside = make_scratch("joutside");
  write_file(outside + "\\secret.txt");
  const std::string junction = root_dir + "\\door";
  const std::wstring wide_junction = mcpread::platform::windows::widen(junction);
  REQUIRE(::CreateDirectoryW(wide_junction.c_str(), nullptr));
  // A mount-point reparse buffer (what mklink /J writes): the target as an NT path, then as shown.
  const std::wstring target = L"\\??\\" + mcpread::platform::windows::widen(outside);
  const std::wstring shown = mcpread::platform::windows::widen(outside);
  const auto bytes = [](const std::wstring& w) { return static_cast<WORD>(w.size() * sizeof(wchar_t)); };
  const WORD names = static_cast<WORD>(bytes(target) + sizeof(wchar_t) + bytes(shown) + sizeof(wchar_t));
  std::vector<unsigned char> buffer(8 + 8 + names, 0);
  const DWORD tag = IO_REPARSE_TAG_MOUNT_POINT;
  const WORD header[6] = {static_cast<WORD>(8 + names), 0, 0, bytes(target),
                          static_cast<WORD>(bytes(target) + sizeof(wchar_t)), bytes(shown)};
  std::memcpy(buffer.data(), &tag, sizeof tag);
  std::memcpy(buffer.data() + 4, header, sizeof header);
  std::memcpy(buffer.data() + 16, target.c_str(), bytes(target));
  std::memcpy(buffer.data() + 16 + bytes(target) + sizeof(wchar_t), shown.c_str(), bytes(shown));
  const HANDLE h = ::CreateFileW(wide_junction.c_str(), GENERIC_WRITE, 0, nullptr, OPEN_EXISTING,
                                 FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
  REQUIRE(h != INVALID_HANDLE_VALUE);
  DWORD returned = 0;
  const BOOL set = ::DeviceIoControl(h, FSCTL_SET_REPARSE_POINT, buffer.data(),
                                     static_cast<DWORD>(buffer.size()), nullptr, 0, &returned, nullptr);
  const DWORD set_error = ::GetLastError();
  ::CloseHandle(h);
  const DWORD attributes = ::GetFileAttributesW(wide_junction.c_str());
  if (!set || attributes == INVALID_FILE_ATTRIBUTES || (attributes & FILE_ATTRIBUTE_REPARSE_POINT) == 0) {
    MESSAGE("skipped: no junction could be made here (FSCTL_SET_REPARSE_POINT gave " << set << ", error "
            << set_error << (set_error == ERROR_NOT_SUPPORTED ? std::string(": not supported, as in Wine 8") : "")
            << ")");
    return;
  }
  std::string why;
  const auto root = final_path(root_dir, &why);
  REQUIRE_MESSAGE(root.has_value(), why);
  const auto through = final_path(junction + "\\secret.txt", &why);
  REQUIRE_MESSAGE(through.has_value(), why);
  CHECK_FALSE(within(*root, *through));  // named inside the root, lies outside it
  const auto outside_dir = final_path(outside, &why);
  REQUIRE_MESSAGE(outside_dir.has_value(), why);
  CHECK(within(*outside_dir, *through));
}

TEST_CASE("windows paths: the roots check accepts inside and refuses outside, through .., and odd names") {
  const std::string root_dir = make_scratch("roots"), outside = make_scratch("elsewhere");
  write_file(root_dir + "\\Note.txt");
  write_file(outside + "\\secret.txt");
  std::string why;
  const auto root = final_path(root_dir, &why);
  REQUIRE_MESSAGE(root.has_value(), why);
  const std::vector<Parsed> roots{*root};
  auto refusal = [&](const std::string& requested) {
    std::string reason;
    CHECK_MESSAGE(!check_in_roots(roots, requested, &reason).has_value(), requested);
    return reason;
  };
  const auto inside = check_in_roots(roots, root_dir + "\\NOTE.TXT", &why);
  REQUIRE_MESSAGE(inside.has_value(), why);
  CHECK(same_name(inside->parts.back(), "Note.txt"));
  CHECK(check_in_roots(roots, root_dir + "/sub/../Note.txt", &why).has_value());
  CHECK(refusal(outside + "\\secret.txt").find("outside the allowed roots") != std::string::npos);
  // Climbing out with .. is refused before anything is opened.
  const std::string climbed = root_dir + "\\..\\" + outside.substr(outside.rfind('\\') + 1) + "\\secret.txt";
  CHECK(refusal(climbed).find("outside the allowed roots") != std::string::npos);
  CHECK(refusal(root_dir + "\\NUL").find("reserved device name") != std::string::npos);
  CHECK(refusal(root_dir + "\\Note.txt:hidden").find("alternate data stream") != std::string::npos);
  CHECK(refusal(root_dir + "\\Note.txt.").find("dot or a space") != std::string::npos);
  CHECK(refusal(root_dir + "\\missing.txt").find("cannot be opened") != std::string::npos);
  CHECK(refusal("Note.txt").find("not an absolute path") != std::string::npos);
}

TEST_CASE("windows paths: an alternate data stream is refused before it is opened") {
  const std::string dir = make_scratch("ads");
  write_file(dir + "\\plain.txt");
  // The rule holds whether or not the file system has streams: the name is refused as written.
  CHECK(component_problem("plain.txt:hidden").find("alternate data stream") != std::string::npos);
  const HANDLE h = ::CreateFileW(mcpread::platform::windows::widen(dir + "\\plain.txt:hidden").c_str(),
                                 GENERIC_WRITE, 0, nullptr, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE) {
    MESSAGE("note: this file system has no alternate data streams, error " << ::GetLastError());
    return;
  }
  ::CloseHandle(h);
  // NTFS keeps a stream inside plain.txt; a listing shows no entry of that name. Wine stores the
  // name as a separate file of the Unix file system instead: the stream cannot be modelled there.
  WIN32_FIND_DATAW found{};
  const HANDLE listing = ::FindFirstFileW(mcpread::platform::windows::widen(dir + "\\plain.txt:hidden").c_str(), &found);
  const bool separate_file = listing != INVALID_HANDLE_VALUE;
  if (listing != INVALID_HANDLE_VALUE) ::FindClose(listing);
  if (separate_file)
    MESSAGE("note: plain.txt:hidden was made as a file of its own, not a stream of plain.txt (Wine "
            "has no alternate data streams); the refusal above does not depend on them");
  else
    MESSAGE("note: plain.txt:hidden was made as a stream of plain.txt");
}
#endif
