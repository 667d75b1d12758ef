/** A promise the test resolves by hand: holds something (an origin's answer) until the test has seen what happens meanwhile. */
export interface Gate {
  readonly opened: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
