// Start Swagger UI (from the installed swagger-ui-bundle package) on the API's OpenAPI schema.
(function () {
  "use strict";
  const root = document.getElementById("swagger-ui");
  window.SwaggerUIBundle({url: root.dataset.schema, dom_id: "#swagger-ui", deepLinking: true});
})();
