// Ink imports react-devtools-core for its optional devtools bridge; engi never enables it.
export default {initialize() {}, connectToDevTools() {}};
