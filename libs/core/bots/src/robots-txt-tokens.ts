/**
 * Product tokens that exist only in robots.txt: no crawler sends them as its
 * User-Agent (Google's AI training use of pages is governed by Google-Extended
 * but fetched as Googlebot; Apple's by Applebot-Extended, fetched as
 * Applebot). A User-Agent naming one is still classified (ai_training, its
 * operator), and these are the tokens a robots.txt check must read for the
 * crawler that fetches for them.
 */
export const ROBOTS_TXT_ONLY_TOKENS: Readonly<Record<string, string>> = {
  'Google-Extended': 'Googlebot',
  'Applebot-Extended': 'Applebot',
};
