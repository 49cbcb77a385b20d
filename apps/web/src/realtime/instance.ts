import { api } from '../api/instance';
import { publishPush } from '../api/pushes';
import { createSocketClient, socketUrl, type WebSocketLike } from './socket';

/** The app's one socket, opened by the shell after login with the token current at each (re)connect. */
export const socket = createSocketClient({
  url: () => {
    const token = api.getToken();
    return token ? socketUrl(api.currentBase(), token.access_token, window.location.origin) : null;
  },
  // The browser's WebSocket is a superset of what the client uses.
  createSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
});

// The query hooks of api/ hear pushes through api/pushes.ts (api must not import the socket layer).
socket.subscribe('*', publishPush);
