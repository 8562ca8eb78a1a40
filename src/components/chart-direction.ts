/**
 * Charts in a right-to-left page (issue 37, Arabic): read from the right like the page, so time and the days run
 * right to left along the x axis and the value axis stands on the right. For @ant-design/charts (G2) configs: spread
 * into a chart's `scale.x` and `axis.y`. Left to right, both add nothing.
 */
import { currentDirection } from '../i18n/language';

/** The x scale's output range: reversed in a right-to-left page. */
export function xScaleDirection(): { range?: [number, number] } {
  return currentDirection() === 'rtl' ? { range: [1, 0] } : {};
}

/** The value axis's side: the right in a right-to-left page. */
export function yAxisDirection(): { position?: 'right' } {
  return currentDirection() === 'rtl' ? { position: 'right' } : {};
}
