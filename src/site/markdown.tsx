import { Fragment, type ReactNode } from 'react';

/**
 * A small, safe Markdown renderer for the admin's policy texts: headings, paragraphs, bullet and numbered
 * lists, bold, italic, inline code and links. It builds React elements (no HTML string, no
 * dangerouslySetInnerHTML), so nothing in a policy text can run script. Links keep only http(s), mailto and
 * site-relative targets.
 */
function safeHref(href: string): string | null {
  return /^(https?:|mailto:|\/(?!\/))/i.test(href.trim()) ? href.trim() : null;
}

export function renderInline(text: string, keyPrefix = 'i'): ReactNode[] {
  const out: ReactNode[] = [];
  const pattern = /(\*\*([^*]+)\*\*|\*([^*]+)\*|_([^_]+)_|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\))/g;
  let last = 0;
  let n = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const key = `${keyPrefix}-${n++}`;
    if (m[2] !== undefined) out.push(<strong key={key}>{renderInline(m[2], key)}</strong>);
    else if (m[3] !== undefined || m[4] !== undefined) out.push(<em key={key}>{renderInline(m[3] ?? m[4], key)}</em>);
    else if (m[5] !== undefined) out.push(<code key={key}>{m[5]}</code>);
    else {
      const href = safeHref(m[7]);
      out.push(
        href ? (
          <a key={key} href={href} rel="noopener noreferrer" target={href.startsWith('/') ? undefined : '_blank'}>
            {m[6]}
          </a>
        ) : (
          <Fragment key={key}>{m[6]}</Fragment>
        ),
      );
    }
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function Markdown({ source }: { source: string }) {
  const blocks: ReactNode[] = [];
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const key = `b${i}`;
    if (!line.trim()) {
      i++;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      // Page titles are h1; policy headings start at h2.
      const level = Math.min(6, heading[1].length + 1);
      const Tag = `h${level}` as 'h2';
      blocks.push(<Tag key={key}>{renderInline(heading[2], key)}</Tag>);
      i++;
      continue;
    }
    const bullet = /^\s*[-*+]\s+/;
    const numbered = /^\s*\d+[.)]\s+/;
    if (bullet.test(line) || numbered.test(line)) {
      const ordered = numbered.test(line);
      const re = ordered ? numbered : bullet;
      const items: ReactNode[] = [];
      while (i < lines.length && re.test(lines[i])) {
        items.push(
          <li key={`${key}-${items.length}`}>{renderInline(lines[i].replace(re, ''), `${key}-${items.length}`)}</li>,
        );
        i++;
      }
      blocks.push(ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>);
      continue;
    }
    const para: string[] = [];
    while (
      i < lines.length &&
      lines[i].trim() &&
      !/^(#{1,6})\s/.test(lines[i]) &&
      !bullet.test(lines[i]) &&
      !numbered.test(lines[i])
    ) {
      para.push(lines[i].trim());
      i++;
    }
    blocks.push(<p key={key}>{renderInline(para.join(' '), key)}</p>);
  }
  return <div className="site-markdown">{blocks}</div>;
}
