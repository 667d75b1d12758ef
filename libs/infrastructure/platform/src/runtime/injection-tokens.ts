/** What the composition root provides to every app of a process (see `RuntimeModule` in @bpc/composition). */
export const APP_CONFIG = Symbol('APP_CONFIG');
export const LOGGER = Symbol('LOGGER');
export const CLOCK = Symbol('CLOCK');
