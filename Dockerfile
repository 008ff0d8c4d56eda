FROM node:20-bookworm
WORKDIR /app
COPY . .
RUN npm ci && npm run build
ENV HOST=0.0.0.0 PORT=8080
CMD ["node", "services/standalone/dist/main.js"]
