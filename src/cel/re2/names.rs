//! The named classes of Go's `regexp/syntax`: the Perl groups (`perl_groups.go`: `\d \s \w`,
//! ASCII only; `\s` is `[\t\n\f\r ]`, without `\v`), the POSIX groups (`[:alpha:]` …, ASCII),
//! and the Unicode names `\p{…}` accepts: `Any`, the keys of Go's `unicode.Categories` and
//! `unicode.Scripts` (Go 1.24 `unicode/tables.go`, Unicode 15.0), spelled exactly.

/// A Unicode class `\p{…}` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::cel::re2) enum ClassName {
    /// `Any`: every code point.
    Any,
    /// A general category (`L`, `Lu`, …); Go's `C` is `Cc|Cf|Co|Cs` (no unassigned code points).
    Category(&'static str),
    /// A script (`Greek`, `Han`, …).
    Script(&'static str),
}

type Ranges = &'static [(char, char)];

const DIGIT: Ranges = &[('0', '9')];
const PERL_SPACE: Ranges = &[('\t', '\n'), ('\u{c}', '\r'), (' ', ' ')];
const WORD: Ranges = &[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')];

/// `\d \D \s \S \w \W` by the letter after the backslash: the ranges and whether negated.
pub(in crate::cel::re2) fn perl_group(letter: u8) -> Option<(Ranges, bool)> {
    let ranges = match letter.to_ascii_lowercase() {
        b'd' => DIGIT,
        b's' => PERL_SPACE,
        b'w' => WORD,
        _ => return None,
    };
    Some((ranges, letter.is_ascii_uppercase()))
}

/// `[:name:]` or `[:^name:]` (the whole text): the ranges and whether negated.
pub(in crate::cel::re2) fn posix_group(text: &str) -> Option<(Ranges, bool)> {
    let inner = text.strip_prefix("[:")?.strip_suffix(":]")?;
    let (name, negated) = match inner.strip_prefix('^') {
        Some(name) => (name, true),
        None => (inner, false),
    };
    let ranges: Ranges = match name {
        "alnum" => &[('0', '9'), ('A', 'Z'), ('a', 'z')],
        "alpha" => &[('A', 'Z'), ('a', 'z')],
        "ascii" => &[('\0', '\u{7f}')],
        "blank" => &[('\t', '\t'), (' ', ' ')],
        "cntrl" => &[('\0', '\u{1f}'), ('\u{7f}', '\u{7f}')],
        "digit" => DIGIT,
        "graph" => &[('!', '~')],
        "lower" => &[('a', 'z')],
        "print" => &[(' ', '~')],
        "punct" => &[('!', '/'), (':', '@'), ('[', '`'), ('{', '~')],
        "space" => &[('\t', '\r'), (' ', ' ')],
        "upper" => &[('A', 'Z')],
        "word" => WORD,
        "xdigit" => &[('0', '9'), ('A', 'F'), ('a', 'f')],
        _ => return None,
    };
    Some((ranges, negated))
}

/// The class `\p{name}` means, if Go knows the name.
pub(in crate::cel::re2) fn unicode_class(name: &str) -> Option<ClassName> {
    if name == "Any" {
        return Some(ClassName::Any);
    }
    if let Some(&category) = CATEGORIES.iter().find(|&&c| c == name) {
        return Some(ClassName::Category(category));
    }
    SCRIPTS
        .iter()
        .find(|&&s| s == name)
        .map(|&script| ClassName::Script(script))
}

/// The keys of Go's `unicode.Categories`.
const CATEGORIES: &[&str] = &[
    "C", "Cc", "Cf", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N",
    "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm", "So",
    "Z", "Zl", "Zp", "Zs",
];

/// The keys of Go's `unicode.Scripts`.
const SCRIPTS: &[&str] = &[
    "Adlam",
    "Ahom",
    "Anatolian_Hieroglyphs",
    "Arabic",
    "Armenian",
    "Avestan",
    "Balinese",
    "Bamum",
    "Bassa_Vah",
    "Batak",
    "Bengali",
    "Bhaiksuki",
    "Bopomofo",
    "Brahmi",
    "Braille",
    "Buginese",
    "Buhid",
    "Canadian_Aboriginal",
    "Carian",
    "Caucasian_Albanian",
    "Chakma",
    "Cham",
    "Cherokee",
    "Chorasmian",
    "Common",
    "Coptic",
    "Cuneiform",
    "Cypriot",
    "Cypro_Minoan",
    "Cyrillic",
    "Deseret",
    "Devanagari",
    "Dives_Akuru",
    "Dogra",
    "Duployan",
    "Egyptian_Hieroglyphs",
    "Elbasan",
    "Elymaic",
    "Ethiopic",
    "Georgian",
    "Glagolitic",
    "Gothic",
    "Grantha",
    "Greek",
    "Gujarati",
    "Gunjala_Gondi",
    "Gurmukhi",
    "Han",
    "Hangul",
    "Hanifi_Rohingya",
    "Hanunoo",
    "Hatran",
    "Hebrew",
    "Hiragana",
    "Imperial_Aramaic",
    "Inherited",
    "Inscriptional_Pahlavi",
    "Inscriptional_Parthian",
    "Javanese",
    "Kaithi",
    "Kannada",
    "Katakana",
    "Kawi",
    "Kayah_Li",
    "Kharoshthi",
    "Khitan_Small_Script",
    "Khmer",
    "Khojki",
    "Khudawadi",
    "Lao",
    "Latin",
    "Lepcha",
    "Limbu",
    "Linear_A",
    "Linear_B",
    "Lisu",
    "Lycian",
    "Lydian",
    "Mahajani",
    "Makasar",
    "Malayalam",
    "Mandaic",
    "Manichaean",
    "Marchen",
    "Masaram_Gondi",
    "Medefaidrin",
    "Meetei_Mayek",
    "Mende_Kikakui",
    "Meroitic_Cursive",
    "Meroitic_Hieroglyphs",
    "Miao",
    "Modi",
    "Mongolian",
    "Mro",
    "Multani",
    "Myanmar",
    "Nabataean",
    "Nag_Mundari",
    "Nandinagari",
    "New_Tai_Lue",
    "Newa",
    "Nko",
    "Nushu",
    "Nyiakeng_Puachue_Hmong",
    "Ogham",
    "Ol_Chiki",
    "Old_Hungarian",
    "Old_Italic",
    "Old_North_Arabian",
    "Old_Permic",
    "Old_Persian",
    "Old_Sogdian",
    "Old_South_Arabian",
    "Old_Turkic",
    "Old_Uyghur",
    "Oriya",
    "Osage",
    "Osmanya",
    "Pahawh_Hmong",
    "Palmyrene",
    "Pau_Cin_Hau",
    "Phags_Pa",
    "Phoenician",
    "Psalter_Pahlavi",
    "Rejang",
    "Runic",
    "Samaritan",
    "Saurashtra",
    "Sharada",
    "Shavian",
    "Siddham",
    "SignWriting",
    "Sinhala",
    "Sogdian",
    "Sora_Sompeng",
    "Soyombo",
    "Sundanese",
    "Syloti_Nagri",
    "Syriac",
    "Tagalog",
    "Tagbanwa",
    "Tai_Le",
    "Tai_Tham",
    "Tai_Viet",
    "Takri",
    "Tamil",
    "Tangsa",
    "Tangut",
    "Telugu",
    "Thaana",
    "Thai",
    "Tibetan",
    "Tifinagh",
    "Tirhuta",
    "Toto",
    "Ugaritic",
    "Vai",
    "Vithkuqi",
    "Wancho",
    "Warang_Citi",
    "Yezidi",
    "Yi",
    "Zanabazar_Square",
];
