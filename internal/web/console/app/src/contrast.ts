// The colour rules of a customer's branding (D-branding), as the server
// checks them (internal/branding): #rrggbb only, text on the colour white
// or dark, whichever contrasts more by WCAG 2.x relative luminance, and at
// least 4.5:1 of it. The Branding page shows the result while a colour is
// chosen; the server decides.

export const MIN_CONTRAST = 4.5;
export const LIGHT_TEXT = "#ffffff";
export const DARK_TEXT = "#111827";

export function isHexColor(s: string): boolean {
  return /^#[0-9a-fA-F]{6}$/.test(s);
}

export function luminance(hex: string): number {
  const v = parseInt(hex.slice(1), 16);
  const ch = (shift: number) => {
    const c = ((v >> shift) & 0xff) / 255;
    return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * ch(16) + 0.7152 * ch(8) + 0.0722 * ch(0);
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export interface ColorCheck {
  valid: boolean; // #rrggbb
  text: string; // the text colour on it
  ratio: number; // that contrast
  ok: boolean; // valid and ratio ≥ MIN_CONTRAST
}

// checkColor answers what the server will answer for a colour.
export function checkColor(color: string): ColorCheck {
  if (!isHexColor(color)) return { valid: false, text: "", ratio: 0, ok: false };
  const c = color.toLowerCase();
  const light = contrast(c, LIGHT_TEXT);
  const dark = contrast(c, DARK_TEXT);
  const [text, ratio] = light >= dark ? [LIGHT_TEXT, light] : [DARK_TEXT, dark];
  return { valid: true, text, ratio, ok: ratio >= MIN_CONTRAST };
}
