// E-mail: a message's headers (RFC 2047 decoded), its text body (text/plain among alternatives,
// HTML made text, charsets decoded) and its attachments, each read through a path past the
// message; an mbox's listing and its messages by number; hostile messages bounded.
#include "fixtures.hpp"
#include "reader_fixtures.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

// GMime is not in the Windows build: the reader refuses there, and these cases say so instead.
#if defined(_WIN32)
constexpr bool kGmimeHere = false;
#else
constexpr bool kGmimeHere = true;
#endif
#define MCPREAD_SKIP_WITHOUT_GMIME()                                                           \
  if (!kGmimeHere) {                                                                           \
    MESSAGE("skipped on Windows: the Windows build of mcp-read does not include GMime (e-mail)"); \
    return;                                                                                    \
  }

ReadOutcome read_path(const TempDir& dir, const std::string& path, std::optional<std::uint64_t> offset = {},
                      std::optional<std::uint64_t> limit = {}, std::optional<FileKind> kind = {}) {
  ReadRequest request;
  request.file_path = path;
  request.offset = offset;
  request.limit = limit;
  request.forced_kind = kind;
  return read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
}

// A message as mail clients send one: RFC 2047 words in its headers, a Latin-1 text body with its
// HTML alternative, a named PDF, a CSV, an unnamed part, a second "report.pdf" and an attached
// message with an attachment of its own.
const std::string kReport =
    "From: =?iso-8859-1?q?J=FCrgen_M=FCller?= <j@example.org>\r\n"
    "To: Ann <ann@example.org>, bob@example.org\r\n"
    "Cc: carol@example.org\r\n"
    "Reply-To: team@example.org\r\n"
    "Subject: =?utf-8?b?UXVhcnRlcmx5IHJlcG9ydCDigJQgw7xuw69jb2Rl?=\r\n"
    "Date: Mon, 02 Jan 2023 10:00:00 +0100\r\n"
    "MIME-Version: 1.0\r\n"
    "Content-Type: multipart/mixed; boundary=\"outer\"\r\n"
    "\r\n"
    "--outer\r\n"
    "Content-Type: multipart/alternative; boundary=\"alt\"\r\n"
    "\r\n"
    "--alt\r\n"
    "Content-Type: text/plain; charset=iso-8859-1\r\n"
    "Content-Transfer-Encoding: quoted-printable\r\n"
    "\r\n"
    "Hello Ann,\r\n"
    "\r\n"
    "the report is attached.\r\n"
    "Gr=FC=DFe\r\n"
    "--alt\r\n"
    "Content-Type: text/html; charset=utf-8\r\n"
    "\r\n"
    "<p>Hello <b>Ann</b></p>\r\n"
    "--alt--\r\n"
    "--outer\r\n"
    "Content-Type: application/pdf\r\n"
    "Content-Disposition: attachment; filename=\"report.pdf\"\r\n"
    "Content-Transfer-Encoding: base64\r\n"
    "\r\n"
    "JVBERi0xLjQgZmFrZQ==\r\n"
    "--outer\r\n"
    "Content-Type: text/csv\r\n"
    "Content-Disposition: attachment; filename=\"data.csv\"\r\n"
    "\r\n"
    "name,count\r\n"
    "apples,3\r\n"
    "--outer\r\n"
    "Content-Type: application/octet-stream\r\n"
    "Content-Transfer-Encoding: base64\r\n"
    "\r\n"
    "AAEC\r\n"
    "--outer\r\n"
    "Content-Type: application/pdf; name=\"report.pdf\"\r\n"
    "Content-Transfer-Encoding: base64\r\n"
    "\r\n"
    "JVBERi0xLjQgdHdv\r\n"
    "--outer\r\n"
    "Content-Type: message/rfc822\r\n"
    "\r\n"
    "From: x@example.org\r\n"
    "Subject: inner\r\n"
    "MIME-Version: 1.0\r\n"
    "Content-Type: multipart/mixed; boundary=\"in\"\r\n"
    "\r\n"
    "--in\r\n"
    "Content-Type: text/plain\r\n"
    "\r\n"
    "inner body\r\n"
    "--in\r\n"
    "Content-Type: text/plain\r\n"
    "Content-Disposition: attachment; filename=\"note.txt\"\r\n"
    "\r\n"
    "inside text\r\n"
    "--in--\r\n"
    "--outer--\r\n";

}  // namespace

TEST_CASE("mail: a message's headers, text body and attachments") {
  MCPREAD_SKIP_WITHOUT_GMIME();
  TempDir dir;
  dir.write("msg.eml", kReport);
  const std::string m = dir.path().string() + kSep + "msg.eml";
  SUBCASE("the plain text of the alternatives, decoded; every other part named once") {
    const ReadOutcome o = read_path(dir, "msg.eml");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(first_text(o) ==
          "E-mail message " + m + " (1.4 KB): 18 lines, 5 attachments.\n\n"
          "From: Jürgen Müller <j@example.org>\nTo: Ann <ann@example.org>, bob@example.org\n"
          "Cc: carol@example.org\nReply-To: team@example.org\nDate: Mon, 02 Jan 2023 10:00:00 +0100\n"
          "Subject: Quarterly report — ünïcode\n\nHello Ann,\n\nthe report is attached.\nGrüße\n\n"
          "5 attachments, each read by its path:\n"
          "- " + m + "/report.pdf (application/pdf, 13 bytes)\n"
          "- " + m + "/data.csv (text/csv, 20 bytes)\n"
          "- " + m + "/part-5.bin (application/octet-stream, 3 bytes)\n"
          "- " + m + "/part-6.pdf (application/pdf, 12 bytes)\n"
          "- " + m + "/part-7.eml (message/rfc822, a message, 244 bytes)\n"
          "[Lines 1-18 of 18. End of " + m + ".]");
    CHECK(o.meta["kind"] == "mail");
    CHECK(o.meta["mime"] == "message/rfc822");
    CHECK(o.meta["attachments"] == 5);
    CHECK(o.meta["body_type"] == "text/plain");
  }
  SUBCASE("paged by lines") {
    const ReadOutcome o = read_path(dir, "msg.eml", 8, 3);
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).ends_with("\n\nHello Ann,\n\nthe report is attached.\n[Lines 8-10 of 18. To read more, "
                                  "read it again from 11.]"));
    CHECK(o.meta["next_offset"] == 11);
  }
  SUBCASE("an offset past the end") {
    const ReadOutcome o = read_path(dir, "msg.eml", 40);
    CHECK(error_text(o) == "Offset 40 is past the end of " + m + ": it has 18 lines. Use an offset from 1 to 18.");
  }
  SUBCASE("file_type=text gives the MIME source") {
    const ReadOutcome o = read_path(dir, "msg.eml", {}, 2, FileKind::text);
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("=?iso-8859-1?q?J=FCrgen_M=FCller?=") != std::string::npos);
  }
}

TEST_CASE("mail: attachments are read through the message's path") {
  MCPREAD_SKIP_WITHOUT_GMIME();
  TempDir dir;
  dir.write("msg.eml", kReport);
  const std::string m = dir.path().string() + kSep + "msg.eml";
  SUBCASE("by its file name, with the reader its name calls for") {
    const ReadOutcome o = read_path(dir, "msg.eml/data.csv");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(o.meta["kind"] == "csv");
    CHECK(first_text(o).starts_with("CSV file " + m + "/data.csv "));
    CHECK(first_text(o).find("| 2 | apples | 3 |") != std::string::npos);
  }
  SUBCASE("an attached message, and its own attachment") {
    const ReadOutcome inner = read_path(dir, "msg.eml/part-7.eml");
    REQUIRE_MESSAGE(!inner.is_error, first_text(inner));
    CHECK(first_text(inner) == "E-mail message " + m + "/part-7.eml (244 bytes): 7 lines, 1 attachment.\n\n"
                               "From: x@example.org\nSubject: inner\n\ninner body\n\n1 attachment, each read by its "
                               "path:\n- " + m + "/part-7.eml/note.txt (text/plain, 11 bytes)\n[Lines 1-7 of 7. End of " +
                               m + "/part-7.eml.]");
    const ReadOutcome note = read_path(dir, "msg.eml/part-7.eml/note.txt");
    REQUIRE_MESSAGE(!note.is_error, first_text(note));
    CHECK(first_text(note).find("inside text") != std::string::npos);
    CHECK(note.meta["size"] == 11);
  }
  SUBCASE("a name the message does not have, with the names it has") {
    const ReadOutcome o = read_path(dir, "msg.eml/nope.pdf");
    CHECK(error_text(o) == "Cannot read " + m + "/nope.pdf: the message has no attachment named nope.pdf (its "
                           "attachments: report.pdf, data.csv, part-5.bin, part-6.pdf, part-7.eml).");
  }
  SUBCASE("nothing lies inside an attachment that is no message") {
    const ReadOutcome o = read_path(dir, "msg.eml/report.pdf/x.txt");
    CHECK(error_text(o) == "Cannot read " + m + "/report.pdf/x.txt: " + m +
                           "/report.pdf is application/pdf, not a message, so nothing lies inside it.");
  }
}

TEST_CASE("mail: HTML-only bodies, charsets, messages without a name") {
  MCPREAD_SKIP_WITHOUT_GMIME();
  TempDir dir;
  SUBCASE("an HTML body is made text, links kept") {
    dir.write("h.eml",
              "From: a@example.org\nSubject: =?utf-8?q?HTML_only_=C3=A9?=\nMIME-Version: 1.0\n"
              "Content-Type: text/html; charset=utf-8\n\n<h1>Title</h1><p>Para <a href=\"http://x.org\">link</a></p>\n");
    const ReadOutcome o = read_path(dir, "h.eml");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    const std::string h = dir.path().string() + kSep + "h.eml";
    CHECK(first_text(o).ends_with("6 lines, 0 attachments; the body is HTML made text.\n\nFrom: a@example.org\n"
                                  "Subject: HTML only é\n\n# Title\n\nPara [link](http://x.org)\n[Lines 1-6 of 6. End "
                                  "of " + h + ".]"));
    CHECK(o.meta["body_type"] == "text/html");
  }
  SUBCASE("a KOI8-R body in base64") {
    // "Привет" in KOI8-R: F0 D2 C9 D7 C5 D4.
    dir.write("k.eml", "From: a@example.org\nSubject: koi\nMIME-Version: 1.0\n"
                       "Content-Type: text/plain; charset=koi8-r\nContent-Transfer-Encoding: base64\n\n8NLJ18XU\n");
    const ReadOutcome o = read_path(dir, "k.eml");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(first_text(o).find("\n\nПривет\n") != std::string::npos);
  }
  SUBCASE("a message without an extension is recognised by its headers") {
    dir.write("saved-message", "Received: from x\nFrom: a@example.org\nDate: Mon, 02 Jan 2023 10:00:00 +0000\n"
                               "Subject: plain\n\nbody\n");
    const ReadOutcome o = read_path(dir, "saved-message");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(o.meta["kind"] == "mail");
    CHECK(first_text(o).find("\n\nbody\n") != std::string::npos);
  }
  SUBCASE("a .txt message stays text unless read with file_type=mail") {
    dir.write("m.txt", "From: a@example.org\nSubject: t\n\nbody\n");
    CHECK(read_path(dir, "m.txt").meta["kind"] == "text");
    const ReadOutcome o = read_path(dir, "m.txt", {}, {}, FileKind{"mail"});
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(o.meta["kind"] == "mail");
  }
}

TEST_CASE("mail: an mbox lists its messages, each read by its number") {
  MCPREAD_SKIP_WITHOUT_GMIME();
  TempDir dir;
  std::string box;
  for (int i = 1; i <= 3; ++i)
    box += "From sender" + std::to_string(i) + "@example.org Tue Jan  3 10:00:00 2023\nFrom: u" + std::to_string(i) +
           "@example.org\nDate: Tue, 03 Jan 2023 10:0" + std::to_string(i) + ":00 +0000\nSubject: msg " +
           std::to_string(i) + "\n\nbody " + std::to_string(i) + "\n\n";
  dir.write("box.mbox", box);
  const std::string b = dir.path().string() + kSep + "box.mbox";
  SUBCASE("the listing, paged by messages") {
    const ReadOutcome o = read_path(dir, "box.mbox", 2, 1);
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(first_text(o) == "Mailbox " + b + " (" + std::to_string(box.size()) + " bytes): 3 messages. Each is read by "
                           "its number after the mailbox's path: " + b + "/1.\n\n2. Tue, 03 Jan 2023 10:02:00 +0000 | "
                           "u2@example.org | msg 2\n[Messages 2-2 of 3. To read more, read it again from 3.]");
    CHECK(o.meta["messages"] == 3);
  }
  SUBCASE("a message by its number") {
    const ReadOutcome o = read_path(dir, "box.mbox/3");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(first_text(o).find("From: u3@example.org\nDate: Tue, 03 Jan 2023 10:03:00 +0000\nSubject: msg 3\n\nbody 3\n") !=
          std::string::npos);
    CHECK(o.meta["path"] == b + "/3");
  }
  SUBCASE("a number the mailbox does not have") {
    const ReadOutcome o = read_path(dir, "box.mbox/4");
    CHECK(error_text(o) == "File not found: " + b + "/4. The mailbox " + b + " holds 3 messages, read by their "
                           "numbers: " + b + "/1 to " + b + "/3; read " + b + " to list them.");
  }
  SUBCASE("an mbox without an extension, by its envelope line") {
    dir.write("Inbox", box);
    const ReadOutcome o = read_path(dir, "Inbox");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(o.meta["kind"] == "mail");
    CHECK(o.meta["messages"] == 3);
  }
}

TEST_CASE("mail: hostile messages are bounded and say what was left out") {
  MCPREAD_SKIP_WITHOUT_GMIME();
  TempDir dir;
  SUBCASE("multiparts nested 5,000 deep") {
    std::string deep = "From: a@example.org\nSubject: deep\nMIME-Version: 1.0\n";
    for (int i = 0; i < 5000; ++i)
      deep += "Content-Type: multipart/mixed; boundary=\"b" + std::to_string(i) + "\"\n\n--b" + std::to_string(i) + "\n";
    deep += "Content-Type: text/plain\n\ndeep body\n";
    const ReadOutcome o = read_written(dir, "deep.eml", deep);
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(first_text(o).find("[The message has no text body.]\n[Left out: parts nested over 16 levels deep.]") !=
          std::string::npos);
  }
  SUBCASE("10,000 parts: 500 attachments listed") {
    std::string many = "From: a@example.org\nSubject: many\nMIME-Version: 1.0\nContent-Type: multipart/mixed; "
                       "boundary=X\n\n--X\nContent-Type: text/plain\n\nbody\n";
    for (int i = 0; i < 10000; ++i)
      many += "--X\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\nAAAA\n";
    many += "--X--\n";
    const ReadOutcome o = read_written(dir, "many.eml", many);
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(o.meta["attachments"] == 500);
    CHECK(first_text(o).find("- " + dir.path().string() + kSep + "many.eml/part-501.bin (") != std::string::npos);
    const ReadOutcome end = read_path(dir, "many.eml", 506);
    CHECK(first_text(end).find("[Left out: attachments after the 500th.]") != std::string::npos);
  }
  SUBCASE("a body over 4 MiB is cut, and said to be") {
    const std::string body(5u << 20, 'x');
    const ReadOutcome o = read_written(dir, "big.eml", "From: a@example.org\nSubject: big\n\n" + body + "\n");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    const ReadOutcome last = read_path(dir, "big.eml", 5);
    CHECK(first_text(last) == "E-mail message " + dir.path().string() + kSep + "big.eml (5.0 MB): 5 lines, 0 "
                               "attachments.\n\n[The body goes on past 4.0 MB: cut there.]\n[Lines 5-5 of 5. End of " +
                               dir.path().string() + kSep + "big.eml.]");
  }
  SUBCASE("not a message at all") {
    const ReadOutcome o = read_written(dir, "empty.mbox", "just text\n");
    CHECK(error_text(o) == "Cannot read the mailbox " + dir.path().string() + kSep + "empty.mbox: GMime finds no "
                           "message in it (an mbox starts with a \"From \" line).");
  }
}
