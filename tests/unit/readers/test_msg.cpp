// Outlook messages (.msg): the headers, the plain body (UTF-16, or 8-bit in the message's code
// page), an HTML-only body made text, attachments listed and read through the message's path,
// attached messages read as messages; hostile files refused with a sentence. The messages are
// built here ([MS-OXMSG] over a small compound file writer). libolecf is not in the Windows build:
// there the refusal is checked.
#include "fixtures.hpp"
#include "msg_fixtures.hpp"
#include "reader_fixtures.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

#if defined(_WIN32)
constexpr bool kGsfHere = false;
#else
constexpr bool kGsfHere = true;
#endif
#define MCPREAD_SKIP_WITHOUT_GSF()                                                               \
  if (!kGsfHere) {                                                                               \
    MESSAGE("skipped on Windows: the Windows build of mcp-read does not include libolecf (OLE2)"); \
    return;                                                                                      \
  }

ReadOutcome read_path(const TempDir& dir, const std::string& path, std::optional<std::uint64_t> offset = {},
                      std::optional<std::uint64_t> limit = {}) {
  ReadRequest request;
  request.file_path = path;
  request.offset = offset;
  request.limit = limit;
  return read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
}

constexpr std::uint64_t kJan2023 = 133171272000000000ull;  // 2023-01-02 10:00:00 UTC as a FILETIME

MsgSpec report() {
  MsgSpec inner;
  inner.subject = u"inner";
  inner.sender_name = u"X";
  inner.sender_smtp = u"x@example.org";
  inner.body = u"inner body";
  inner.attachments.push_back(MsgAttach{u"note.txt", "text/plain", "inside text", {}});

  MsgSpec m;
  m.subject = u"Quarterly report \u2014 \u00fcn\u00efcode";
  m.sender_name = u"J\u00fcrgen M\u00fcller";
  m.sender_smtp = u"j@example.org";
  m.body = u"Hello Ann,\r\n\r\nthe report is attached.\r\nGr\u00fc\u00dfe\r\n";
  m.submit_time = kJan2023;
  m.recipients = {{u"Ann", u"ann@example.org", 1}, {u"", u"bob@example.org", 1}, {u"Carol", u"carol@example.org", 2}};
  m.attachments.push_back(MsgAttach{u"data.csv", "text/csv", "n,fruit,count\n2,apples,3\n", {}});
  m.attachments.push_back(MsgAttach{u"", "", "abc", {}});
  m.attachments.push_back(MsgAttach{u"data.csv", "text/csv", "x\n", {}});
  m.attachments.push_back(MsgAttach{u"Inner", "", "", {inner}});
  return m;
}

}  // namespace

TEST_CASE("msg: an Outlook message's headers, body and attachments") {
  TempDir dir;
  dir.write("r.msg", msg_file(report()));
  const std::string m = dir.path().string() + kSep + "r.msg";
  if (!kGsfHere) {
    const ReadOutcome o = read_path(dir, "r.msg");
    REQUIRE(o.is_error);
    CHECK(first_text(o).find("needs libolecf") != std::string::npos);
    return;
  }
  SUBCASE("the headers that matter, the body by lines, the attachments with their paths") {
    const ReadOutcome o = read_path(dir, "r.msg");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    const std::string size = first_text(o).substr(0, first_text(o).find("): "));
    CHECK(first_text(o) ==
          size + "): 16 lines, 4 attachments.\n\n"
          "From: Jürgen Müller <j@example.org>\nTo: Ann <ann@example.org>, bob@example.org\n"
          "Cc: Carol <carol@example.org>\nDate: Mon, 02 Jan 2023 10:00:00 +0000\n"
          "Subject: Quarterly report — ünïcode\n\nHello Ann,\n\nthe report is attached.\nGrüße\n\n"
          "4 attachments, each read by its path:\n"
          "- " + m + "/data.csv (text/csv, 25 bytes)\n"
          "- " + m + "/part-2.bin (application/octet-stream, 3 bytes)\n"
          "- " + m + "/part-3.csv (text/csv, 2 bytes)\n"
          "- " + m + "/Inner (application/vnd.ms-outlook, a message)\n"
          "[Lines 1-16 of 16. End of " + m + ".]");
    CHECK(size.starts_with("Outlook message " + m + " ("));
    CHECK(o.meta["kind"] == "msg");
    CHECK(o.meta["mime"] == "application/vnd.ms-outlook");
    CHECK(o.meta["attachments"] == 4);
    CHECK(o.meta["body_type"] == "text/plain");
  }
  SUBCASE("paged by lines") {
    const ReadOutcome o = read_path(dir, "r.msg", 7, 3);
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).ends_with("\n\nHello Ann,\n\nthe report is attached.\n[Lines 7-9 of 16. To read more, "
                                  "read it again from 10.]"));
    CHECK(o.meta["next_offset"] == 10);
  }
  SUBCASE("an attachment by its name, read by the reader its name calls for") {
    const ReadOutcome o = read_path(dir, "r.msg/data.csv");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(o.meta["kind"] == "csv");
    CHECK(first_text(o).find("| 2 | apples | 3 |") != std::string::npos);
  }
  SUBCASE("an attached message, and its own attachment") {
    const ReadOutcome inner = read_path(dir, "r.msg/Inner");
    REQUIRE_MESSAGE(!inner.is_error, first_text(inner));
    CHECK(first_text(inner) == "Outlook message " + m + "/Inner: 7 lines, 1 attachment.\n\n"
                               "From: X <x@example.org>\nSubject: inner\n\ninner body\n\n1 attachment, each read by its "
                               "path:\n- " + m + "/Inner/note.txt (text/plain, 11 bytes)\n[Lines 1-7 of 7. End of " +
                               m + "/Inner.]");
    const ReadOutcome note = read_path(dir, "r.msg/Inner/note.txt");
    REQUIRE_MESSAGE(!note.is_error, first_text(note));
    CHECK(first_text(note).find("inside text") != std::string::npos);
  }
  SUBCASE("a name the message does not have, with the names it has") {
    const ReadOutcome o = read_path(dir, "r.msg/nope.pdf");
    REQUIRE(o.is_error);
    CHECK(first_text(o) == "Cannot read " + m + "/nope.pdf: the message has no attachment named nope.pdf (its "
                           "attachments: data.csv, part-2.bin, part-3.csv, Inner).");
  }
  SUBCASE("nothing lies inside an attachment that is no message") {
    const ReadOutcome o = read_path(dir, "r.msg/data.csv/x.txt");
    REQUIRE(o.is_error);
    CHECK(first_text(o) == "Cannot read " + m + "/data.csv/x.txt: " + m +
                           "/data.csv is text/csv, not a message, so nothing lies inside it.");
  }
}

TEST_CASE("msg: 8-bit bodies in the message's code page, HTML-only bodies, Exchange senders") {
  MCPREAD_SKIP_WITHOUT_GSF();
  TempDir dir;
  SUBCASE("a PT_STRING8 body in windows-1251") {
    MsgSpec m;
    m.subject = u"s";
    m.body8 = "\xcf\xf0\xe8\xe2\xe5\xf2";  // "Привет"
    m.code_page = 1251;
    dir.write("a.msg", msg_file(m));
    const ReadOutcome o = read_path(dir, "a.msg");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(first_text(o).find("\n\nПривет\n") != std::string::npos);
  }
  SUBCASE("an HTML-only body is made text") {
    MsgSpec m;
    m.subject = u"h";
    m.html = "<html><body><p>Caf\xe9 <b>menu</b></p><p>Second</p></body></html>";  // windows-1252
    dir.write("h.msg", msg_file(m));
    const ReadOutcome o = read_path(dir, "h.msg");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(o.meta["body_type"] == "text/html");
    CHECK(first_text(o).find("; the body is HTML made text.") != std::string::npos);
    CHECK(first_text(o).find("Subject: h\n\nCafé menu\n\nSecond\n[Lines 1-5 of 5.") != std::string::npos);
  }
  SUBCASE("Exchange's internal addresses: the received headers say who") {
    MsgSpec m;
    m.sender_name = u"Joe";
    m.recipients = {{u"Team", u"", 1}};
    m.transport_headers = "Received: from x\r\n by y\r\nFrom: Joe <joe@example.org>\r\nTo: Team\r\n <team@example.org>"
                          "\r\nDate: Wed, 9 Oct 2019 05:55:10 +1000\r\n\r\n";
    m.body = u"b";
    dir.write("x.msg", msg_file(m));
    const ReadOutcome o = read_path(dir, "x.msg");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(first_text(o).find("\n\nFrom: Joe <joe@example.org>\nTo: Team <team@example.org>\n"
                             "Date: Wed, 9 Oct 2019 05:55:10 +1000\n\nb\n") != std::string::npos);
  }
  SUBCASE("a body kept only as compressed RTF is read as <message>/body.rtf") {
    MsgSpec m;
    m.subject = u"r";
    // [MS-OXRTFCP]'s first example: "{\rtf1\ansi\ansicpg1252\pard hello world}\r\n" compressed.
    const unsigned char lzfu[] = {0x2d, 0x00, 0x00, 0x00, 0x2b, 0x00, 0x00, 0x00, 0x4c, 0x5a, 0x46, 0x75, 0xf1,
                                  0xc5, 0xc7, 0xa7, 0x03, 0x00, 0x0a, 0x00, 0x72, 0x63, 0x70, 0x67, 0x31, 0x32,
                                  0x35, 0x42, 0x32, 0x0a, 0xf3, 0x20, 0x68, 0x65, 0x6c, 0x09, 0x00, 0x20, 0x62,
                                  0x77, 0x05, 0xb0, 0x6c, 0x64, 0x7d, 0x0a, 0x80, 0x0f, 0xa0};
    m.rtf_compressed.assign(reinterpret_cast<const char*>(lzfu), sizeof lzfu);
    dir.write("r.msg", msg_file(m));
    const std::string path = dir.path().string() + kSep + "r.msg";
    const ReadOutcome o = read_path(dir, "r.msg");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(first_text(o).find("Subject: r\n\n[The body is kept only as RTF: read it as " + path + "/body.rtf.]\n") !=
          std::string::npos);
    const ReadOutcome rtf = read_path(dir, "r.msg/body.rtf");
    REQUIRE_MESSAGE(!rtf.is_error, first_text(rtf));
    CHECK(rtf.meta["kind"] == "rtf");
    CHECK(first_text(rtf).find("hello world") != std::string::npos);
    m.rtf_compressed[8] = 'X';  // neither LZFu nor MELA
    dir.write("bad.msg", msg_file(m));
    const ReadOutcome bad = read_path(dir, "bad.msg/body.rtf");
    REQUIRE(bad.is_error);
    CHECK(first_text(bad) == "Cannot read " + dir.path().string() + kSep +
                                 "bad.msg/body.rtf: its RTF body is compressed in a way not known (neither LZFu nor "
                                 "MELA).");
  }
  SUBCASE("no body at all") {
    MsgSpec m;
    m.subject = u"empty";
    dir.write("e.msg", msg_file(m));
    const ReadOutcome o = read_path(dir, "e.msg");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(first_text(o).find("Subject: empty\n\n[The message has no text body.]\n") != std::string::npos);
  }
}

TEST_CASE("msg: hostile and foreign files are refused with a sentence") {
  MCPREAD_SKIP_WITHOUT_GSF();
  TempDir dir;
  const std::string good = msg_file(report());
  const auto error_of = [&dir](const std::string& name, const std::string& bytes) {
    dir.write(name, bytes);
    const ReadOutcome o = read_path(dir, name);
    return o.is_error ? first_text(o) : std::string("not refused: ") + first_text(o);
  };
  const std::string p = dir.path().string() + kSep;
  SUBCASE("an OLE2 file that holds no message") {
    CHECK(error_of("w.msg", ole2_file({{"WordDocument", std::string(100, 'x'), {}, false}})) ==
          "Cannot read the Outlook message " + p + "w.msg: it is an OLE2 file without an Outlook message in it (no "
          "__properties_version1.0 stream; another Office format named .msg?).");
  }
  SUBCASE("truncated: never a crash, a sentence or what is left") {
    for (const std::size_t keep : {std::size_t{8}, std::size_t{100}, std::size_t{512}, std::size_t{1500},
                                   good.size() / 2, good.size() - 100}) {
      dir.write("t.msg", good.substr(0, keep));
      const ReadOutcome o = read_path(dir, "t.msg");
      CHECK_FALSE(first_text(o).empty());
      if (o.is_error) CHECK(first_text(o).starts_with("Cannot read "));
    }
  }
  SUBCASE("bytes flipped all through: never a crash") {
    for (std::size_t step = 7; step < 200; step += 31) {
      std::string bad = good;
      for (std::size_t i = 0; i < bad.size(); i += step) bad[i] = static_cast<char>(bad[i] ^ 0x5A);
      bad.replace(0, 8, "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8);
      dir.write("f.msg", bad);
      const ReadOutcome o = read_path(dir, "f.msg");
      CHECK_FALSE(first_text(o).empty());
    }
  }
  SUBCASE("a text file named .msg (a message catalog) is read as text") {
    dir.write("c.msg", "set 1\n1 Hello\n");
    const ReadOutcome o = read_path(dir, "c.msg");
    REQUIRE_FALSE(o.is_error);
    CHECK(o.meta["kind"] == "text");
  }
  SUBCASE("600 attachments: 500 listed, the rest said to be left out") {
    MsgSpec m;
    m.subject = u"many";
    for (int i = 0; i < 600; ++i) m.attachments.push_back(MsgAttach{u"a.txt", "text/plain", "x", {}});
    dir.write("m.msg", msg_file(m));
    const ReadOutcome o = read_path(dir, "m.msg", 1, 3);
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(o.meta["attachments"] == 500);
    const ReadOutcome end = read_path(dir, "m.msg", 506, 10);
    CHECK(first_text(end).find("[Left out: attachments after the 500th.]") != std::string::npos);
  }
  SUBCASE("attached messages 20 deep: read 16 deep at most") {
    MsgSpec m;
    m.subject = u"0";
    for (int i = 1; i <= 20; ++i) {
      MsgSpec outer;
      outer.subject = std::u16string(1, static_cast<char16_t>(u'a' + i));
      outer.attachments.push_back(MsgAttach{u"m", "", "", {m}});
      m = outer;
    }
    dir.write("d.msg", msg_file(m));
    std::string path = "d.msg";
    for (int i = 0; i < 17; ++i) path += "/m";
    const ReadOutcome o = read_path(dir, path);
    REQUIRE(o.is_error);
    CHECK(first_text(o).find("messages are read 16 attached messages deep at most.") != std::string::npos);
    const ReadOutcome ok = read_path(dir, "d.msg/m/m/m");
    REQUIRE_MESSAGE(!ok.is_error, first_text(ok));
    CHECK(first_text(ok).find("Subject: r\n") != std::string::npos);
  }
}
