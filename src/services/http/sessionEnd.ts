/**
 * What the console does when the server says the session is over outside a request (the live
 * socket closed with 4401): the same as a 401 answer. The request layer registers it, so a caller
 * needs neither the request configuration nor the session.
 */
let ended: () => void = () => undefined;

export const onSessionEnded = (handler: () => void): void => {
  ended = handler;
};

export const sessionEnded = (): void => ended();
