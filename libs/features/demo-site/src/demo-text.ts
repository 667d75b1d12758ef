/**
 * Deterministic prose for the demo site's pages, built from a few word lists:
 * generated, so no page is copied from anywhere, and the same on every start.
 */
const OPENINGS = ['Built for long days outside,', 'Tested on wet and windy trips,', 'Made to be packed again and again,', 'Chosen by people who camp every season,'];
const CLAIMS = [
  'it keeps its shape after years of use',
  'it packs down smaller than you expect',
  'it is easy to repair with the kit that comes with it',
  'it works as well in a garden as on a mountain',
  'it weighs less than most of what it replaces',
];
const DETAILS = [
  'Every seam is taped and every buckle can be replaced by hand.',
  'The materials are recycled where that does not cost strength.',
  'Each one is checked twice before it leaves the workshop.',
  'Spare parts stay available for ten years after the last sale.',
  'The colours are chosen to fade slowly in strong sunlight.',
];

/** `count` paragraphs about `subject`, each about sixty words, varied by `seed`. */
export function paragraphsAbout(subject: string, count: number, seed: number): string[] {
  return Array.from({ length: count }, (_, i) => paragraph(subject, seed + i));
}

function paragraph(subject: string, n: number): string {
  const pick = <T>(list: readonly T[], offset: number): T => list[(n + offset) % list.length];
  return [
    `${pick(OPENINGS, 0)} the ${subject} is what we reach for first, because ${pick(CLAIMS, 1)}.`,
    `People who bought the ${subject} tell us ${pick(CLAIMS, 3)}, and that ${pick(CLAIMS, 4)}.`,
    pick(DETAILS, 2),
    pick(DETAILS, 5),
  ].join(' ');
}
