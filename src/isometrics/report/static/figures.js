// Figures of the isometrics report. Their data sit in <script type="application/json"> blocks
// (never executed); this script parses them and draws them with Plotly. No network access.
(function () {
  "use strict";
  var CONFIG = {displaylogo: false, responsive: true};

  function draw(block) {
    var spec = JSON.parse(block.textContent);
    var div = document.getElementById(block.getAttribute("data-figure"));
    Plotly.newPlot(div, spec.figure.data, spec.figure.layout, CONFIG);
    return {div: div, groups: spec.groups || []};
  }

  // Show one group of traces (one metric's level curves and best points), hide the others.
  function showGroup(figure, chosen) {
    var indices = [], visible = [];
    for (var g = 0; g < figure.groups.length; g++) {
      for (var i = 0; i < figure.groups[g].length; i++) {
        indices.push(figure.groups[g][i]);
        visible.push(g === chosen);
      }
    }
    if (indices.length) { Plotly.restyle(figure.div, {visible: visible}, indices); }
  }

  window.isometricsFigures = function () {
    var blocks = document.querySelectorAll("script[type='application/json'][data-figure]");
    for (var i = 0; i < blocks.length; i++) {
      var figure = draw(blocks[i]);
      var select = document.querySelector("select[data-groups-of='" + figure.div.id + "']");
      if (select) {
        (function (figure, select) {
          select.addEventListener("change", function () { showGroup(figure, parseInt(select.value, 10)); });
        })(figure, select);
      }
    }
  };
})();
