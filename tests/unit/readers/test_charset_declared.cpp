// Charsets a file declares in its first lines (Vim, Emacs, PEP 263, XML, HTML meta), honoured
// when they decode the file cleanly.
#include "fixtures.hpp"
#include "mcpread/readers/charset.hpp"

#include <doctest/doctest.h>

#include <span>
#include <string>

using mcpread::readers::DetectedCharset;
using mcpread::test::iconv_encode;

namespace {

// Short Icelandic menu lines: too little for statistics to tell Latin-1 from Latin-2 (ð is đ
// there) or from the Mac's Central European table.
const std::string kIcelandic =
    "menutrans &Help\t\t\tHj&álp\nmenutrans &User\\ Manual\tNotandahandbók\n"
    "menutrans &How-to\\ links\t&Leiðbeiningar\nmenutrans Save\\ &As\\.\\.\\.\tVista\\ sem\\.\\.\\.\n"
    "menutrans Split\\ patched\\ &By\\.\\.\\.\tPlástra\\ við\\.\\.\\.\nmenutrans &Edit\t\tBr&eyta\n";
const std::string kFrench =
    "Le café du coin propose un menu spécial à 12 euros, très apprécié des habitués. Les crêpes "
    "sont délicieuses.\n";
const std::string kJapanese =
    "日本は東アジアに位置する島国です。首都は東京で、人口は約一億二千万人です。春には桜が咲き、多くの人々が"
    "花見を楽しみます。\n";

DetectedCharset detect(const std::string& s) {
  return mcpread::readers::detect_charset(
      std::span(reinterpret_cast<const unsigned char*>(s.data()), s.size()));
}

std::string latin1(const std::string& utf8) { return iconv_encode(utf8, "WINDOWS-1252"); }

}  // namespace

TEST_CASE("charset declared: without a declaration, statistics misread short Latin-1") {
  CHECK(detect(latin1(kIcelandic)).name == "ISO-8859-13");
}

TEST_CASE("charset declared: Vim's scriptencoding and modelines") {
  SUBCASE("scriptencoding, with the label read as browsers read it") {
    const auto d = detect(latin1("\" Icelandic menu\nif &enc != 'utf-8'\n  scriptencoding latin1\nendif\n" + kIcelandic));
    CHECK(d.name == "WINDOWS-1252");
    CHECK(d.label == "latin1");
  }
  SUBCASE("shortened to :scripte") {
    CHECK(detect(latin1(":scripte iso-8859-1\n" + kIcelandic)).name == "WINDOWS-1252");
  }
  SUBCASE("a comment that names the command declares nothing") {
    CHECK(detect(latin1("\" there is no \"scriptencoding latin1\" here\n" + kIcelandic)).name == "ISO-8859-13");
  }
  SUBCASE("a modeline's fileencoding or fenc, in the first five lines") {
    CHECK(detect(latin1("\" vim: set fileencoding=latin1 :\n" + kIcelandic)).name == "WINDOWS-1252");
    CHECK(detect(latin1("# vi:ts=8:fenc=cp1252\n" + kIcelandic)).name == "WINDOWS-1252");
    CHECK(detect(latin1("1\n2\n3\n4\n5\n# vim: set fileencoding=latin1 :\n" + kIcelandic)).name == "ISO-8859-13");
    CHECK(detect(latin1("\" novim: set fileencoding=latin1 :\n" + kIcelandic)).name == "ISO-8859-13");
  }
}

TEST_CASE("charset declared: Emacs, Python, XML and HTML") {
  SUBCASE("Emacs's coding variable, with its names") {
    CHECK(detect(latin1(";; -*- mode: text; coding: iso-latin-1-unix -*-\n" + kIcelandic)).name == "WINDOWS-1252");
    CHECK(detect(latin1("#!/bin/sh\n# -*- coding: latin-1 -*-\n" + kIcelandic)).name == "WINDOWS-1252");
  }
  SUBCASE("PEP 263, on line 1 or 2 only") {
    CHECK(detect(latin1("#!/usr/bin/python3\n# coding=latin-1\n" + kIcelandic)).name == "WINDOWS-1252");
    CHECK(detect(latin1("import os\n\n# coding=latin-1\n" + kIcelandic)).name == "ISO-8859-13");
  }
  SUBCASE("the XML declaration") {
    CHECK(detect(latin1("<?xml version=\"1.0\" encoding='ISO-8859-1'?>\n<m>" + kIcelandic + "</m>")).name ==
          "WINDOWS-1252");
  }
  SUBCASE("an HTML meta charset, in either form") {
    CHECK(detect(latin1("<html><head><meta charset=\"latin1\"></head>\n" + kIcelandic)).name == "WINDOWS-1252");
    CHECK(detect(latin1("<HTML><META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=iso-8859-1\">\n" +
                        kIcelandic))
              .name == "WINDOWS-1252");
  }
}

TEST_CASE("charset declared: a declaration is used only when it decodes the file cleanly") {
  SUBCASE("EUC-JP declared over Shift_JIS bytes: detection decides") {
    const auto d = detect("# -*- coding: euc-jp -*-\n" + iconv_encode(kJapanese, "CP932"));
    CHECK(d.name == "CP932");
  }
  SUBCASE("a declared code page that decodes cleanly wins over statistics") {
    CHECK(detect(latin1("# -*- coding: windows-1250 -*-\n" + kFrench)).name == "WINDOWS-1250");
  }
  SUBCASE("a name nobody knows is no declaration") {
    CHECK(detect(latin1("# -*- coding: no-such-charset -*-\n" + kIcelandic)).name == "ISO-8859-13");
  }
  SUBCASE("valid UTF-8 stays UTF-8 whatever it declares") {
    CHECK(detect("# -*- coding: latin-1 -*-\n" + kFrench).name == "UTF-8");
  }
}
