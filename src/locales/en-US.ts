// Umi's locale plugin imports every file here at start, so each is empty: the language shown loads
// its catalogue (the shared one of schemas/locales, the words the server uses) before the first
// render, and another language on a switch (session/bundledCatalogue.ts).
export default {};
