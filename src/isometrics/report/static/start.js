// Draw the figures, then the explorers, one per task (this script is the last element of the page's body).
window.isometricsFigures(window.isometricsExplorers);
