import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Renders its children once its box comes within `margin` of the viewport, and keeps them from then on, so
 * code the children load lazily (a chart library) is fetched only for what the reader reaches. Where the
 * browser has no IntersectionObserver (jsdom) the children render at once.
 */
export function WhenOnScreen({
  children,
  minHeight,
  margin = '200px',
}: {
  children: ReactNode;
  minHeight?: number;
  margin?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [reached, setReached] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = box.current;
    if (reached || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setReached(true);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [reached, margin]);
  return (
    <div ref={box} style={minHeight ? { minHeight } : undefined}>
      {reached ? children : null}
    </div>
  );
}
