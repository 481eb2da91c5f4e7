// Register the figures and the explorers, each drawn when it comes near the window (this script is
// the last element of the page's body).
window.isometricsLazyFigures();
window.isometricsExplorers();
window.isometricsLazy.ready();
