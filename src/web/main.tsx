import { createRoot } from 'react-dom/client';
import './styles.css';

createRoot(document.getElementById('root')!).render(<h1 className="p-4 text-2xl">Feeder</h1>);
