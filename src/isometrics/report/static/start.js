// Draw the figures, then the explorers (this script is the last element of the page's body).
window.isometricsFigures();
window.isometricsExplorers();
