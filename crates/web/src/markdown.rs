//! Markdown shown in the dashboard (a person's personality text, D24): rendered to HTML with
//! pulldown-cmark (CommonMark), and made safe on the way: raw HTML in the text is shown as text,
//! images are reduced to their description, and a link keeps its target only when it is
//! `https:`, `http:` or `mailto:` (any other, such as `javascript:`, leaves just its text).

use maud::PreEscaped;
use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

/// `text` as sanitised HTML (see the module documentation).
pub fn to_html(text: &str) -> PreEscaped<String> {
    // For each open link: whether it was kept (its end is kept with it).
    let mut links: Vec<bool> = Vec::new();
    let events =
        Parser::new_ext(text, Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TABLES).filter_map(|e| match e {
            Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
            Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => None,
            Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
                let safe = ["https:", "http:", "mailto:"].iter().any(|s| dest_url.to_ascii_lowercase().starts_with(s));
                links.push(safe);
                safe.then_some(Event::Start(Tag::Link { link_type, dest_url, title, id }))
            }
            Event::End(TagEnd::Link) => links.pop().unwrap_or(false).then_some(Event::End(TagEnd::Link)),
            Event::FootnoteReference(name) => Some(Event::Text(CowStr::from(format!("[{name}]")))),
            other => Some(other),
        });
    let mut out = String::with_capacity(text.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut out, events);
    PreEscaped(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::to_html;

    #[test]
    fn markdown_becomes_html() {
        let html = to_html("## Drive\n\nYou **lead** projects:\n\n- plans\n- people\n").0;
        assert_eq!(html, "<h2>Drive</h2>\n<p>You <strong>lead</strong> projects:</p>\n<ul>\n<li>plans</li>\n<li>people</li>\n</ul>\n");
    }

    #[test]
    fn raw_html_scripts_and_unsafe_links_are_defused() {
        let html = to_html("<script>alert(1)</script>\n\nA <b onclick=x>bold</b> [link](javascript:alert(1)) ![img](https://x.example/a.png) [ok](https://talent.example)").0;
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<b "), "{html}");
        assert!(!html.contains("javascript:"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(html.contains("<a href=\"https://talent.example\">ok</a>"), "{html}");
        assert!(html.contains("link"), "the unsafe link keeps its text: {html}");
    }
}
